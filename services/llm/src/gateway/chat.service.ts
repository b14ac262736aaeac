import { errors, type Tenant } from '@platform/tenancy';
import type { ProjectSlots } from '@platform/limits';
import { tracesLlmContent } from '../telemetry/gen-ai-call';
import { checkMessagesFor } from '../completions/completions.service';
import type { LlmConfig } from '../config';
import { checkFallbacks, worstCaseCostUsd } from '../limits/limits.service';
import { settleTokens, type SpendLimits } from '../limits/spend';
import { requireVendorClient, type VendorAccess } from '../providers/providers.service';
import type { CompletionLogWriter } from '../usage/completion-log-writer';
import type { ChatCompletion, ChatRequest } from '../vendors/chat-types';
import type { ProviderType } from '../vendors/vendor-types';
import { AttemptLog, firstSuccess } from './chat-attempts';
import type { ChatBody } from './chat-request.schema';
import { routeGatewayModel } from './model-not-found';

/** The gateway's settings: retries, fallbacks, streams. */
export type GatewaySettings = Pick<
  LlmConfig,
  | 'gatewayRetries'
  | 'gatewayRetryBaseMs'
  | 'gatewayRetryMaxWaitMs'
  | 'gatewayMaxFallbacks'
  | 'gatewayStreamMaxMs'
  | 'gatewayMaxStreamsPerProject'
>;

/** What the OpenAI-compatible chat route takes: pieces of the instance's `LlmResources`, put together in `routes.ts`. */
export interface Gateway {
  vendors: VendorAccess;
  limits: SpendLimits;
  logs: CompletionLogWriter;
  /** Open streams on this replica, in all and per project. */
  streams: ProjectSlots;
  settings: GatewaySettings;
}

/** An admitted request: what to send, the models to try in turn, and what it reserved of the budget. */
export interface AdmittedChat {
  request: ChatRequest;
  models: string[];
  log: AttemptLog;
  reservedUsd: number;
}

/** Routes the model and each fallback once, checks what Anthropic's models need if any may answer; the model's vendor. */
function checkModels(maxFallbacks: number, body: ChatBody): ProviderType {
  const provider = routeGatewayModel(body.model);
  const fallbackProviders = checkFallbacks(maxFallbacks, body.fallbacks ?? []);
  if (provider === 'anthropic' || fallbackProviders.includes('anthropic')) {
    if ((body.n ?? 1) > 1) {
      throw errors.validation('Request validation failed', [{ path: 'n', message: 'claude models answer n = 1 only' }]);
    }
    checkMessagesFor('anthropic', body);
  }
  return provider;
}

/** What is sent on: the OpenAI request without the gateway's own fields and without nulls. */
function vendorRequest(body: ChatBody): ChatRequest {
  const { stream: _stream, stream_options: _options, fallbacks: _fallbacks, ...rest } = body;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null)) as ChatRequest;
}

/**
 * Checks the models, makes sure the first one's vendor is configured, then admits the request
 * under the project's limits, reserving its worst-case cost on every model it may try: its own
 * fallbacks, or the project's default ones when it names none. `finish` must follow, whatever happens.
 */
export async function admitChat(gateway: Gateway, tenant: Tenant, body: ChatBody): Promise<AdmittedChat> {
  const { limits } = gateway;
  const named = [body.model, ...(body.fallbacks ?? [])];
  await requireVendorClient(gateway.vendors, tenant, checkModels(gateway.settings.gatewayMaxFallbacks, body));
  const request = vendorRequest(body);
  const chainOf = (defaults: string[]) =>
    body.fallbacks ? named : [body.model, ...defaults.filter((model) => model !== body.model)];
  const log = new AttemptLog(gateway.logs, tenant, body.stream === true);
  if (!limits.enabled) {
    const defaults = body.fallbacks ? [] : await limits.admissions.defaults(tenant);
    return { request, models: chainOf(defaults), log, reservedUsd: 0 };
  }
  const { defaults, reservedUsd } = await limits.admissions.admit(tenant, (defaults, budgeted) =>
    worstCaseCostUsd(request, chainOf(defaults), limits.defaultMaxTokens, budgeted),
  );
  return { request, models: chainOf(defaults), log, reservedUsd };
}

/** Turns the request's reservation into what it spent. */
export function finish(limits: SpendLimits, tenant: Tenant, chat: Pick<AdmittedChat, 'log' | 'reservedUsd'>): void {
  settleTokens(limits, tenant, chat.reservedUsd, { spentUsd: chat.log.spentUsd, tokens: chat.log.tokens });
}

/**
 * A whole (non-streamed) completion, with what it cost (null for a model without a price), and
 * the vendor's bytes when they are the completion as it stands (`ChatResult.raw`).
 */
export async function chatCompletion(
  gateway: Gateway,
  tenant: Tenant,
  body: ChatBody,
  signal: AbortSignal,
): Promise<{ completion: ChatCompletion; costUsd: number | null; raw?: Buffer }> {
  const chat = await admitChat(gateway, tenant, body);
  try {
    // Sent on the event loop's next turn: the whole answers admitted in one turn then reach the
    // vendor together, which wakes the processes at both ends far less often than one request at
    // a time would (pnpm bench llm-gateway, the limits row). A stream goes at once: its first
    // token is what its client waits for.
    await new Promise((resolve) => setImmediate(resolve));
    const done = await firstSuccess(gateway, tenant, chat.log, chat.models, chat.request, signal, (client, r) =>
      client.chat(r, signal),
    );
    const { completion } = done.value;
    chat.log.record(done.model, done.provider, done.started, {
      tokens: done.value.tokens,
      error: null,
      responseModel: completion.model,
      finishReasons: completion.choices.map((choice) => choice.finish_reason).filter(Boolean),
      ...(tracesLlmContent(tenant) && {
        content: { input: chat.request.messages, output: completion.choices.map((choice) => choice.message) },
      }),
    });
    return { completion, costUsd: chat.log.costUsd, raw: done.value.raw };
  } finally {
    finish(gateway.limits, tenant, chat);
  }
}

/** A cost as a header value: plain decimals, never an exponent. */
export function formatUsd(cost: number): string {
  return cost.toFixed(10).replace(/\.?0+$/, '') || '0';
}
