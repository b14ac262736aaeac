import type { ServiceDeps } from '@platform/runtime';
import { errors, type Tenant } from '@platform/tenancy';
import { finish } from '../gateway/chat.service';
import { AttemptLog, firstSuccess } from '../gateway/chat-attempts';
import { routeGatewayModel } from '../gateway/model-not-found';
import type { LlmShared } from '../llm-shared';
import { worstCaseCostUsd } from '../limits/limits.service';
import { requireVendorClient } from '../providers/providers.service';
import type { EmbeddingsRequest, EmbeddingsResult } from '../vendors/openai-embeddings';
import type { EmbeddingsBody } from './embeddings-request.schema';

type Deps = Pick<ServiceDeps, 'db' | 'secrets'>;

const EMBEDDING_MODEL = /^text-embedding-/;

/** An embedding model of OpenAI's, or the error saying why not: unknown (404), or a vendor or model without embeddings (400). */
function checkEmbeddingModel(model: string, path: string): void {
  const provider = routeGatewayModel(model, path);
  if (provider === 'anthropic') {
    throw errors.validation(`Model "${model}" has no embeddings: Anthropic offers none`, [
      {
        path,
        message:
          'embeddings are answered by OpenAI models only (text-embedding-3-small, text-embedding-3-large, text-embedding-ada-002)',
      },
    ]);
  }
  if (!EMBEDDING_MODEL.test(model)) {
    throw errors.validation(`Model "${model}" is not an embedding model`, [
      { path, message: 'use an OpenAI embedding model (text-embedding-*)' },
    ]);
  }
}

/**
 * Embeddings through the gateway's machinery: admitted under the project's limits (the input's
 * characters bound its cost), retried and falling back over the request's `fallbacks` like a chat
 * request, each attempt logged with its usage and cost.
 */
export async function createEmbeddings(
  deps: Deps,
  runtime: LlmShared,
  tenant: Tenant,
  body: EmbeddingsBody,
  signal: AbortSignal,
): Promise<{ response: EmbeddingsResult['response']; costUsd: number | null }> {
  checkEmbeddingModel(body.model, 'model');
  const fallbacks = body.fallbacks ?? [];
  if (fallbacks.length > runtime.config.gatewayMaxFallbacks) {
    throw errors.validation('Too many fallbacks', [
      { path: 'fallbacks', message: `at most ${runtime.config.gatewayMaxFallbacks} fallback models` },
    ]);
  }
  fallbacks.forEach((model, i) => checkEmbeddingModel(model, `fallbacks.${i}`));
  await requireVendorClient(deps, runtime, tenant, 'openai');
  const { fallbacks: _fallbacks, ...request } = body;
  const models = [body.model, ...fallbacks];
  const log = new AttemptLog(runtime, tenant, false);
  // The input's JSON characters, each counted a token, bound what it costs; nothing is output.
  const sized = { messages: [{ input: body.input }], max_tokens: 0 };
  const reservedUsd = runtime.config.gatewayLimits
    ? (
        await runtime.admissions.admit(tenant, (_defaults, budgeted) =>
          worstCaseCostUsd(sized, models, runtime.config.defaultMaxTokens, budgeted),
        )
      ).reservedUsd
    : 0;
  try {
    const done = await firstSuccess<EmbeddingsResult, EmbeddingsRequest>(
      deps,
      runtime,
      tenant,
      log,
      models,
      request,
      signal,
      (client, r) => client.embeddings!(r, signal),
    );
    log.record(done.model, done.provider, done.started, { tokens: done.value.tokens, error: null });
    return { response: done.value.response, costUsd: log.costUsd };
  } finally {
    finish(runtime, tenant, { log, reservedUsd });
  }
}
