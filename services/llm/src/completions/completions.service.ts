import { errors, type Tenant } from '@platform/tenancy';
import { requireVendorClient, type VendorAccess } from '../providers/providers.service';
import type { CompletionLogWriter } from '../usage/completion-log-writer';
import { routeModel } from '../vendors/routing';
import { vendorAppError } from '../vendors/vendor-errors';
import type { ProviderType } from '../vendors/vendor-types';
import { admitSpend, settleSpend, type SpendLimits } from '../limits/spend';
import { DEFAULT_TEMPERATURE, runCompletion, type CompletionOutcome } from './completion-runner';
import { toCompletion, type Completion } from './completions.mapper';
import type { CompletionRequest } from './completions.schemas';

/** Anthropic needs at least one message that is not a system message. */
export function checkMessagesFor(
  provider: ProviderType,
  request: { messages: { role: string }[] },
  path = 'messages',
): void {
  if (provider === 'anthropic' && request.messages.every((m) => m.role === 'system' || m.role === 'developer')) {
    throw errors.validation('Request validation failed', [
      { path, message: 'claude models need at least one user or assistant message' },
    ]);
  }
}

/** One completion, admitted under the project's limits before the vendor is called. */
export async function createCompletion(
  vendors: VendorAccess,
  limits: SpendLimits,
  logs: CompletionLogWriter,
  tenant: Tenant,
  request: CompletionRequest,
): Promise<Completion> {
  const provider = routeModel(request.model);
  checkMessagesFor(provider, request);
  const client = await requireVendorClient(vendors, tenant, provider);
  const reservedUsd = await admitSpend(limits, tenant, request);
  let outcome: CompletionOutcome | undefined;
  try {
    outcome = await runCompletion(
      client,
      { ...request, temperature: request.temperature ?? DEFAULT_TEMPERATURE },
      null,
    );
  } finally {
    settleSpend(limits, tenant, reservedUsd, outcome?.log);
  }
  logs.write(tenant, outcome.log);
  // The SDK error itself stays out of the log: its text may echo part of the key.
  if (!outcome.ok) throw vendorAppError(outcome.failure);
  return toCompletion(outcome.result, outcome.log);
}
