import { toIso } from '@platform/tenancy';
import type { CompletionLogEntry } from '../usage/usage.types';
import type { ProviderType, Usage, VendorCompletion } from '../vendors/vendor-types';

/** A completion as POST /v1/completions returns it; its id is the id of its log record. */
export interface Completion {
  id: string;
  completion: string;
  /** The model the vendor reports. */
  model: string;
  provider: ProviderType;
  usage: Usage;
  createdAt: string;
}

/** The vendor's answer and its log entry become the API object here and nowhere else. */
export function toCompletion(result: VendorCompletion, log: CompletionLogEntry): Completion {
  return {
    id: log.id,
    completion: result.completion,
    model: result.model,
    provider: log.provider,
    usage: result.usage,
    createdAt: toIso(log.createdAt)!,
  };
}
