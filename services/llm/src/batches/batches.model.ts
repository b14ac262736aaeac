import type { Page } from '@platform/tenancy';
import type { ChatMessage, ProviderType, Usage } from '../vendors/vendor-types';

/** The batch's domain types and its row, shared by the edge, the repository and the batch worker. */

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

export interface BatchRecord {
  id: string;
  tenantId: string;
  projectId: string;
  status: BatchStatus;
  requestCount: number;
  completedCount: number;
  failedCount: number;
  webhookUrl: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

/** The columns a batch is read with. */
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

export function toBatchRecord(row: BatchRow): BatchRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    projectId: row.project_id,
    status: row.status,
    requestCount: row.request_count,
    completedCount: row.completed_count,
    failedCount: row.failed_count,
    webhookUrl: row.webhook_url,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

export interface BatchResultRecord {
  customId: string;
  status: 'succeeded' | 'failed';
  completion: string | null;
  model: string;
  usage: Usage;
  error: string | null;
}
