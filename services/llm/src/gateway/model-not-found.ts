import { AppError } from '@platform/tenancy';
import { providerOfModel } from '../vendors/routing';
import type { ProviderType } from '../vendors/vendor-types';

/**
 * An unknown model on an OpenAI-compatible route: 404 with OpenAI's code `model_not_found`
 * (`openAiErrors` names it), so that the SDKs raise their not-found error.
 */
export class ModelNotFoundError extends AppError {
  constructor(model: string, path = 'model') {
    super('NOT_FOUND', `The model \`${model}\` does not exist or you do not have access to it.`, {
      details: [
        {
          path,
          message: `"${model}" is not a known model (gpt-*, o1*, o3*, o4*, chatgpt-*, claude-* or text-embedding-*)`,
        },
      ],
    });
  }
}

/** The vendor of a model on an OpenAI-compatible route, or 404 `model_not_found`. */
export function routeGatewayModel(model: string, path = 'model'): ProviderType {
  const provider = providerOfModel(model);
  if (!provider) throw new ModelNotFoundError(model, path);
  return provider;
}
