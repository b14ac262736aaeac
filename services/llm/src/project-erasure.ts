/**
 * Every table of this service that holds a project's rows, in the order a deleted project's
 * rows are erased (issue #33). Batch items go with their batches (cascade).
 */
export const ERASURE_TABLES = [
  'webhook_attempts',
  'batches',
  'completion_logs',
  'batch_concurrency_slots',
  'project_limits',
  'providers',
] as const;
