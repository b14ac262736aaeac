import { randomUUID } from 'node:crypto';
import { describeVendorFailure, type VendorFailure } from '../vendors/vendor-errors';
import { NO_USAGE } from '../vendors/sdk-options';
import type { CompletionInput, VendorClient, VendorCompletion } from '../vendors/vendor-types';
import { meteredUsage } from '../usage/price-table';
import type { CompletionLogEntry } from '../usage/usage.types';
import { genAiErrorType, recordGenAiCall } from '../telemetry/gen-ai-call';

const NO_TOKENS = Object.freeze({ prompt: 0, completion: 0, cached: 0, cacheWrite: 0 });

export const DEFAULT_TEMPERATURE = 1.0;

export type CompletionOutcome =
  | { ok: true; result: VendorCompletion; log: CompletionLogEntry }
  | { ok: false; failure: VendorFailure; log: CompletionLogEntry };

/**
 * One vendor call with its log entry, for a single completion and for a batch item alike.
 * The log carries the requested model, so stats group by what callers asked for.
 */
export async function runCompletion(
  client: VendorClient,
  input: CompletionInput,
  batchId: string | null,
  signal?: AbortSignal,
): Promise<CompletionOutcome> {
  const started = performance.now();
  const base = { id: randomUUID(), model: input.model, provider: client.provider, batchId, createdAt: new Date() };
  const genAiBase = {
    operation: 'chat',
    provider: client.provider,
    requestModel: input.model,
    attempt: 1,
    stream: false,
    batchId,
  };
  try {
    const result = await client.complete(input, signal);
    const latencyMs = Math.round(performance.now() - started);
    const { prompt_tokens: prompt, completion_tokens: completion } = result.usage;
    const tokens = { prompt, completion, cached: result.cache?.read ?? 0, cacheWrite: result.cache?.write ?? 0 };
    const log = { ...base, status: 'success' as const, usage: result.usage, latencyMs, error: null };
    const metered = meteredUsage(input.model, tokens);
    recordGenAiCall({ ...genAiBase, started, tokens, costUsd: metered.costUsd });
    return { ok: true, result, log: { ...log, ...metered } };
  } catch (error) {
    const failure = describeVendorFailure(error, client.apiKey);
    const latencyMs = Math.round(performance.now() - started);
    const usage = NO_USAGE;
    const log = { ...base, status: 'error' as const, usage, latencyMs, error: failure.message, costUsd: 0 };
    recordGenAiCall({ ...genAiBase, started, tokens: NO_TOKENS, costUsd: 0, errorType: genAiErrorType(failure) });
    return { ok: false, failure, log };
  }
}
