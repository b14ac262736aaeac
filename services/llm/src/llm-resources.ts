import type { ServiceDeps } from '@platform/runtime';
import { ProjectSlots } from '@platform/limits';
import type { LlmConfig } from './config';
import { Admissions } from './limits/admissions';
import { MeterSettler } from './limits/meter-settler';
import type { SpendLimits } from './limits/spend';
import type { VendorAccess } from './providers/providers.service';
import { CompletionLogWriter } from './usage/completion-log-writer';
import { VendorClientCache } from './vendors/vendor-clients';

/**
 * The in-process state of one LLM instance, made once in `build` and handed, piece by piece, to
 * the routes and the jobs: vendor clients, buffered completion logs, project limits, open streams
 * and webhook slots.
 */
export interface LlmResources {
  config: LlmConfig;
  /** The projects' vendor clients (cached) and what making one takes. */
  vendors: VendorAccess;
  logs: CompletionLogWriter;
  /** The project limits: admissions and meters, or off (`LLM_GATEWAY_LIMITS`). */
  limits: SpendLimits;
  /** Admits gateway requests under their project's limits: from a lease, else one round trip per project at a time. */
  admissions: Admissions;
  /** Settles finished gateway requests against their project's budget and rate meters. */
  meters: MeterSettler;
  /** Open streams on this replica, in all and per project. */
  streams: ProjectSlots;
  /** This process's webhook delivery slots, shared fairly by the projects. */
  webhookSlots: ProjectSlots;
}

export function createLlmResources(deps: ServiceDeps, config: LlmConfig): LlmResources {
  const meters = new MeterSettler(deps.db, deps.logger, config.meterFlushMs);
  const admissions = new Admissions(deps.db, meters, deps.logger, { leaseTtlMs: config.gatewayLeaseTtlMs });
  return {
    config,
    vendors: {
      db: deps.db,
      secrets: deps.secrets,
      clients: new VendorClientCache(config.clientCacheTtlMs),
      optionsFor: (provider) => ({
        baseUrl: provider === 'openai' ? config.openaiBaseUrl : config.anthropicBaseUrl,
        timeoutMs: config.vendorTimeoutMs,
        maxRetries: config.vendorMaxRetries,
        defaultMaxTokens: config.defaultMaxTokens,
      }),
    },
    logs: new CompletionLogWriter(deps.db, deps.logger, {
      flushMs: config.logFlushMs,
      maxBuffered: config.logMaxBuffered,
    }),
    limits: { enabled: config.gatewayLimits, admissions, meters, defaultMaxTokens: config.defaultMaxTokens },
    admissions,
    meters,
    streams: new ProjectSlots({
      total: config.gatewayMaxStreams,
      perProject: config.gatewayMaxStreamsPerProject,
    }),
    webhookSlots: new ProjectSlots({
      total: deps.config.webhooks.slots,
      perProject: deps.config.webhooks.projectSlots,
    }),
  };
}
