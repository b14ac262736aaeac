/** The contracts the tools come from: the six services' and the console's OpenAPI documents (as the typed client's). */
import { openapi as consoleApi } from '../../../services/console/src/openapi';
import { SERVICE_DOCUMENTS as SIX } from '../../client/test/service-documents';

export const SERVICE_DOCUMENTS: Record<string, object> = { ...SIX, console: consoleApi };
