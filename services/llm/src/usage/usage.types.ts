import type { ProviderType, Usage } from '../vendors/vendor-types';

export type CompletionStatus = 'success' | 'error';

/** One vendor call, as recorded in the completion log. */
export interface CompletionLogEntry {
  id: string;
  model: string;
  provider: ProviderType;
  status: CompletionStatus;
  usage: Usage;
  latencyMs: number;
  error: string | null;
  batchId: string | null;
  createdAt: Date;
  /** USD by the price table; null when the model has no price. */
  costUsd?: number | null;
  /** Of the prompt tokens: read from the vendor's cache, and written to it (Anthropic). */
  cachedTokens?: number;
  cacheWriteTokens?: number;
  /** Ties together the attempts (retries, fallbacks) of one gateway request; `attempt` counts from 1. */
  requestId?: string | null;
  attempt?: number | null;
  stream?: boolean;
}

export interface StatsRange {
  from?: Date;
  to?: Date;
}

/** Which logs a page of the log list holds: all of the project's unless narrowed. */
export interface LogFilter extends StatsRange {
  model?: string;
  status?: CompletionStatus;
}
