import type { Page } from '@platform/tenancy';
import type { ChatMessage, ProviderType } from '../vendors/vendor-types';

/**
 * The batch's domain types and its row, shared by the edge, the repository and the batch
 * worker (whose repository reads the same table, and may not import this feature's).
 */

export const BATCH_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export interface BatchRequestInput {
  custom_id: string;
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
}

/** A request of a batch once its model is routed. */
export type RoutedBatchRequest = BatchRequestInput & { provider: ProviderType };

export interface ListBatchesQuery extends Page {
  status?: BatchStatus;
}

/** The columns a batch is read with (the owner too: the worker learns a batch's tenant from its row). */
export const BATCH_COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'status',
  'request_count',
  'completed_count',
  'failed_count',
  'webhook_url',
  'created_at',
  'completed_at',
] as const;

/** A row of `batches`, every column. */
export interface BatchTableRow {
  id: string;
  tenant_id: string;
  project_id: string;
  status: BatchStatus;
  request_count: number;
  completed_count: number;
  failed_count: number;
  webhook_url: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  heartbeat_at: Date | null;
}

/** A batch as it is read (BATCH_COLUMNS). */
export type BatchRow = Pick<BatchTableRow, (typeof BATCH_COLUMNS)[number]>;
