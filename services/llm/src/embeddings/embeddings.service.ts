import { errors, type Tenant } from '@platform/tenancy';
import { finish, type Gateway } from '../gateway/chat.service';
import { AttemptLog, firstSuccess } from '../gateway/chat-attempts';
import { routeGatewayModel } from '../gateway/model-not-found';
import { worstCaseCostUsd } from '../limits/limits.service';
import { requireVendorClient } from '../providers/providers.service';
import type { EmbeddingsRequest, EmbeddingsResult } from '../vendors/openai-embeddings';
import type { EmbeddingsBody } from './embeddings-request.schema';

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
  gateway: Gateway,
  tenant: Tenant,
  body: EmbeddingsBody,
  signal: AbortSignal,
): Promise<{ response: EmbeddingsResult['response']; costUsd: number | null }> {
  checkEmbeddingModel(body.model, 'model');
  const fallbacks = body.fallbacks ?? [];
  const { gatewayMaxFallbacks } = gateway.settings;
  if (fallbacks.length > gatewayMaxFallbacks) {
    throw errors.validation('Too many fallbacks', [
      { path: 'fallbacks', message: `at most ${gatewayMaxFallbacks} fallback models` },
    ]);
  }
  fallbacks.forEach((model, i) => checkEmbeddingModel(model, `fallbacks.${i}`));
  await requireVendorClient(gateway.vendors, tenant, 'openai');
  const { fallbacks: _fallbacks, ...request } = body;
  const models = [body.model, ...fallbacks];
  const { limits } = gateway;
  const log = new AttemptLog(gateway.logs, tenant, false);
  log.operation = 'embeddings';
  // The input's JSON characters, each counted a token, bound what it costs; nothing is output.
  const sized = { messages: [{ input: body.input }], max_tokens: 0 };
  const reservedUsd = limits.enabled
    ? (
        await limits.admissions.admit(tenant, (_defaults, budgeted) =>
          worstCaseCostUsd(sized, models, limits.defaultMaxTokens, budgeted),
        )
      ).reservedUsd
    : 0;
  try {
    const done = await firstSuccess<EmbeddingsResult, EmbeddingsRequest>(
      gateway,
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
    finish(limits, tenant, { log, reservedUsd });
  }
}
