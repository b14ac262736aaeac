import { randomUUID } from 'node:crypto';
import { AppError, type Tenant } from '@platform/tenancy';
import type { LlmConfig } from '../config';
import { vendorClientFor, type VendorAccess } from '../providers/providers.service';
import { genAiErrorType, recordGenAiCall } from '../telemetry/gen-ai-call';
import type { CompletionLogWriter } from '../usage/completion-log-writer';
import { meteredUsage, type TokenCounts } from '../usage/price-table';
import type { CompletionLogEntry } from '../usage/usage.types';
import type { ChatRequest } from '../vendors/chat-types';
import { providerOfModel } from '../vendors/routing';
import { describeVendorFailure, vendorAppError, type VendorFailure } from '../vendors/vendor-errors';
import type { ProviderType, VendorClient } from '../vendors/vendor-types';

/** What the vendor said about an attempt, for its trace span. */
export interface AttemptDetail {
  responseModel?: string;
  finishReasons?: string[];
  /** `performance.now()` of a stream's first chunk. */
  firstChunkAt?: number;
  /** A failed attempt's type (its status or kind). */
  errorType?: string;
  /** Prompt and completion, when the project opted in (`tracesLlmContent`). */
  content?: { input?: unknown; output?: unknown };
}

/** One gateway request's attempts: its id, and what they cost and used together. */
export class AttemptLog {
  readonly requestId = randomUUID();
  attempts = 0;
  costUsd: number | null = 0;
  /** What the priced attempts cost: the spend metered, as the logs' costs sum it (a null cost adds nothing). */
  spentUsd = 0;
  tokens = 0;
  /** The GenAI operation its attempts' spans name (`chat` for the gateway's routes). */
  operation = 'chat';
  private lastModel?: string;

  constructor(
    private readonly logs: CompletionLogWriter,
    private readonly tenant: Tenant,
    readonly stream: boolean,
  ) {}

  /** Logs one attempt with its outcome, and adds its cost and tokens to the request's. */
  record(
    model: string,
    provider: ProviderType,
    started: number,
    outcome: { tokens: TokenCounts; error: string | null } & AttemptDetail,
  ): CompletionLogEntry {
    const { tokens } = outcome;
    const metered = meteredUsage(model, tokens);
    const { costUsd } = metered;
    recordGenAiCall({
      operation: this.operation,
      provider,
      requestModel: model,
      responseModel: outcome.responseModel,
      started,
      firstChunkAt: outcome.firstChunkAt,
      tokens,
      costUsd,
      finishReasons: outcome.finishReasons,
      attempt: this.attempts,
      retryOf: this.attempts === 1 ? undefined : this.lastModel === model ? 'retry' : 'fallback',
      stream: this.stream,
      errorType: outcome.errorType ?? (outcome.error === null ? undefined : 'error'),
      content: outcome.content,
    });
    this.lastModel = model;
    this.costUsd = this.costUsd === null || costUsd === null ? null : this.costUsd + costUsd;
    if (costUsd !== null) this.spentUsd += costUsd;
    this.tokens += tokens.prompt + tokens.completion;
    const entry: CompletionLogEntry = {
      id: randomUUID(),
      model,
      provider,
      status: outcome.error === null ? 'success' : 'error',
      usage: {
        prompt_tokens: tokens.prompt,
        completion_tokens: tokens.completion,
        total_tokens: tokens.prompt + tokens.completion,
      },
      latencyMs: Math.round(performance.now() - started),
      error: outcome.error,
      batchId: null,
      createdAt: new Date(),
      ...metered,
      requestId: this.requestId,
      attempt: this.attempts,
      stream: this.stream,
    };
    this.logs.write(this.tenant, entry);
    return entry;
  }
}

const NO_TOKENS: TokenCounts = Object.freeze({ prompt: 0, completion: 0, cached: 0, cacheWrite: 0 });

/** A vendor 429, 408, 409 or 5xx (Anthropic's 529 included), or no answer at all: worth another try. */
function isRetryable(failure: VendorFailure): boolean {
  if (failure.kind === 'unreachable') return true;
  const status = failure.status ?? 0;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The vendor's Retry-After (retry-after-ms, or seconds or a date), in ms. */
function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { headers?: { get?: (name: string) => string | null } } | null)?.headers;
  if (typeof headers?.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** A failure the SDKs do not type (a stream cut mid-way) counts as the vendor being unreachable. */
export function failureOf(error: unknown, apiKey: string): VendorFailure {
  try {
    return describeVendorFailure(error, apiKey);
  } catch {
    return { kind: 'unreachable', message: 'The vendor connection broke' };
  }
}

// A vendor's refusal of the request itself keeps its status, so the OpenAI SDKs raise the usual class.
const PASSED_ON = new Set([400, 404, 413, 422]);

function gatewayError(failure: VendorFailure): AppError {
  if (failure.kind === 'vendor' && failure.status && PASSED_ON.has(failure.status)) {
    return new AppError('VENDOR_ERROR', failure.message, { status: failure.status });
  }
  return vendorAppError(failure);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export interface Attempted<T> {
  value: T;
  model: string;
  provider: ProviderType;
  client: VendorClient;
  started: number;
}

/** How often and how long a failed vendor call is tried again. */
type RetrySettings = Pick<LlmConfig, 'gatewayRetries' | 'gatewayRetryBaseMs' | 'gatewayRetryMaxWaitMs'>;

/**
 * Tries each model in turn: the same model again on a retryable failure (after a backoff, or the
 * vendor's Retry-After when it is not too long), then the next model. A refusal of the request
 * itself (a 400) ends it: another model would refuse it too. `call` must have produced its first
 * byte when it resolves, so nothing has reached the client while a retry is still possible.
 */
export async function firstSuccess<T, R extends { model: string } = ChatRequest>(
  gateway: { vendors: VendorAccess; settings: RetrySettings },
  tenant: Tenant,
  log: AttemptLog,
  models: string[],
  request: R,
  signal: AbortSignal,
  call: (client: VendorClient, request: R) => Promise<T>,
): Promise<Attempted<T>> {
  const { gatewayRetries, gatewayRetryBaseMs, gatewayRetryMaxWaitMs } = gateway.settings;
  let lastFailure: VendorFailure | undefined;
  for (const model of models) {
    const provider = providerOfModel(model)!;
    const client = await vendorClientFor(gateway.vendors, tenant, provider);
    if (!client) continue; // a fallback on a vendor the project has not configured
    for (let retry = 0; retry <= gatewayRetries; retry++) {
      if (signal.aborted) throw vendorAppError({ kind: 'aborted', message: 'Client went away' });
      log.attempts++;
      const started = performance.now();
      try {
        return { value: await call(client, { ...request, model }), model, provider, client, started };
      } catch (error) {
        const failure = failureOf(error, client.apiKey);
        log.record(model, provider, started, {
          tokens: NO_TOKENS,
          error: failure.message,
          errorType: genAiErrorType(failure),
        });
        lastFailure = failure;
        if (failure.kind === 'aborted') throw vendorAppError(failure);
        if (!isRetryable(failure)) throw gatewayError(failure);
        if (retry === gatewayRetries) break;
        const wait = retryAfterMs(error) ?? gatewayRetryBaseMs * 2 ** retry * (0.8 + Math.random() * 0.4);
        if (wait > gatewayRetryMaxWaitMs) break;
        await sleep(wait, signal);
      }
    }
  }
  throw gatewayError(lastFailure ?? { kind: 'unreachable', message: 'No model could be tried' });
}
