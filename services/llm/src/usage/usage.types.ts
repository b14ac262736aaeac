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
}

export interface StatsRange {
  from?: Date;
  to?: Date;
}
