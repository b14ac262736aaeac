/** The six services' OpenAPI documents, by service (scripts/client-codegen has the same, but loads openapi-typescript, which jest cannot). */
import { openapi as auth } from '../../../services/auth/src/openapi';
import { openapi as billing } from '../../../services/billing/src/openapi';
import { openapi as cms } from '../../../services/cms/src/openapi';
import { openapi as llm } from '../../../services/llm/src/openapi';
import { openapi as mailer } from '../../../services/mailer/src/openapi';
import { openapi as notifications } from '../../../services/notifications/src/openapi';

export const SERVICE_DOCUMENTS: Record<string, object> = { auth, billing, cms, llm, mailer, notifications };
