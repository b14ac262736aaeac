import type { ServiceDeps } from '@platform/runtime';
import { errors, type Tenant } from '@platform/tenancy';
import { routeModel } from '../completions/completions.service';
import type { LlmRuntime } from '../llm-runtime';
import { readFallbacks } from '../limits/limits.repository';
import { admit, worstCaseCostUsd } from '../limits/limits.service';
import { requireVendorClient } from '../providers/providers.service';
import type { ChatCompletion, ChatRequest } from '../vendors/chat-types';
import { AttemptLog, firstSuccess } from './chat-attempts';
import type { ChatBody } from './chat.schemas';

type Deps = Pick<ServiceDeps, 'db' | 'secrets'>;

/** An admitted request: what to send, the models to try in turn, and what it reserved of the budget. */
export interface AdmittedChat {
  request: ChatRequest;
  models: string[];
  log: AttemptLog;
  reservedUsd: number;
}

function checkModels(runtime: LlmRuntime, body: ChatBody, models: string[]): void {
  models.forEach((model, i) => routeModel(model, i === 0 ? 'model' : `fallbacks.${i - 1}`));
  if (models.length - 1 > runtime.config.gatewayMaxFallbacks) {
    throw errors.validation('Too many fallbacks', [
      { path: 'fallbacks', message: `at most ${runtime.config.gatewayMaxFallbacks} fallback models` },
    ]);
  }
  const claude = models.some((model) => routeModel(model) === 'anthropic');
  if (claude && (body.n ?? 1) > 1) {
    throw errors.validation('Request validation failed', [{ path: 'n', message: 'claude models answer n = 1 only' }]);
  }
  if (claude && body.messages.every((m) => m.role === 'system' || m.role === 'developer')) {
    throw errors.validation('Request validation failed', [
      { path: 'messages', message: 'claude models need at least one user or assistant message' },
    ]);
  }
}

/** What is sent on: the OpenAI request without the gateway's own fields and without nulls. */
function vendorRequest(body: ChatBody): ChatRequest {
  const { stream: _stream, stream_options: _options, fallbacks: _fallbacks, ...rest } = body;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null)) as ChatRequest;
}

/**
 * Checks the models, makes sure the first one's vendor is configured, then admits the request
 * under the project's limits. `finish` must follow, whatever happens.
 */
export async function admitChat(
  deps: Deps,
  runtime: LlmRuntime,
  tenant: Tenant,
  body: ChatBody,
): Promise<AdmittedChat> {
  const models = [body.model, ...(body.fallbacks ?? [])];
  checkModels(runtime, body, models);
  await requireVendorClient(deps, runtime, tenant, routeModel(body.model));
  const request = vendorRequest(body);
  const reservedUsd = worstCaseCostUsd(request, models, runtime.config.defaultMaxTokens);
  const defaults = runtime.config.gatewayLimits
    ? await admit(deps.db, tenant, reservedUsd)
    : body.fallbacks
      ? []
      : await readFallbacks(deps.db, tenant);
  // The project's fallbacks apply when the request names none of its own.
  const chain = body.fallbacks ? models : [body.model, ...defaults.filter((model) => model !== body.model)];
  return { request, models: chain, log: new AttemptLog(runtime, tenant, body.stream === true), reservedUsd };
}

/** Turns the request's reservation into what it spent. */
export function finish(runtime: LlmRuntime, tenant: Tenant, chat: AdmittedChat): void {
  if (!runtime.config.gatewayLimits) return;
  runtime.meters.add(tenant, {
    spentUsd: chat.log.costUsd ?? 0,
    releasedUsd: chat.reservedUsd,
    tokens: chat.log.tokens,
  });
}

/** A whole (non-streamed) completion, with what it cost (null for a model without a price). */
export async function chatCompletion(
  deps: Deps,
  runtime: LlmRuntime,
  tenant: Tenant,
  body: ChatBody,
  signal: AbortSignal,
): Promise<{ completion: ChatCompletion; costUsd: number | null }> {
  const chat = await admitChat(deps, runtime, tenant, body);
  try {
    const done = await firstSuccess(deps, runtime, tenant, chat.log, chat.models, chat.request, signal, (client, r) =>
      client.chat(r, signal),
    );
    chat.log.record(done.model, done.provider, done.started, { tokens: done.value.tokens, error: null });
    return { completion: done.value.completion, costUsd: chat.log.costUsd };
  } finally {
    finish(runtime, tenant, chat);
  }
}

/** A cost as a header value: plain decimals, never an exponent. */
export function formatUsd(cost: number): string {
  return cost.toFixed(10).replace(/\.?0+$/, '') || '0';
}
