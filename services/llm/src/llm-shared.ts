import type { ServiceDeps } from '@platform/runtime';
import { ProjectSlots } from '@platform/limits';
import type { LlmConfig } from './config';
import { Admissions } from './limits/admissions';
import { MeterSettler } from './limits/meter-settler';
import { CompletionLogWriter } from './usage/completion-log-writer';
import { VendorClientCache } from './vendors/vendor-clients';
import type { VendorOptions, ProviderType } from './vendors/vendor-types';

/** What the HTTP side and the background jobs of one service instance share, made once in `build`. */
export interface LlmShared {
  config: LlmConfig;
  clients: VendorClientCache;
  logs: CompletionLogWriter;
  /** This process's webhook delivery slots, shared fairly by the projects. */
  webhookSlots: ProjectSlots;
  /** Admits gateway requests under their project's limits: from a lease, else one round trip per project at a time. */
  admissions: Admissions;
  /** Settles finished gateway requests against their project's budget and rate meters. */
  meters: MeterSettler;
  /** Open streams on this replica, in all and per project. */
  streams: ProjectSlots;
  vendorOptions(provider: ProviderType): VendorOptions;
}

export function createLlmShared(deps: ServiceDeps, config: LlmConfig): LlmShared {
  const meters = new MeterSettler(deps.db, deps.logger, config.meterFlushMs);
  return {
    config,
    clients: new VendorClientCache(config.clientCacheTtlMs),
    logs: new CompletionLogWriter(deps.db, deps.logger, {
      flushMs: config.logFlushMs,
      maxBuffered: config.logMaxBuffered,
    }),
    webhookSlots: new ProjectSlots({
      total: deps.config.webhooks.slots,
      perProject: deps.config.webhooks.projectSlots,
    }),
    admissions: new Admissions(deps.db, meters, { leaseTtlMs: config.gatewayLeaseTtlMs }),
    meters,
    streams: new ProjectSlots({
      total: config.gatewayMaxStreams,
      perProject: config.gatewayMaxStreamsPerProject,
    }),
    vendorOptions: (provider) => ({
      baseUrl: provider === 'openai' ? config.openaiBaseUrl : config.anthropicBaseUrl,
      timeoutMs: config.vendorTimeoutMs,
      maxRetries: config.vendorMaxRetries,
      defaultMaxTokens: config.defaultMaxTokens,
    }),
  };
}
