/**
 * Every table of this service that holds a project's rows, in the order a deleted project's
 * rows are erased (issue #33). Delivery attempts go with their deliveries (cascade); news is shared by every project and stays.
 */
export const ERASURE_TABLES = [
  'webhook_deliveries',
  'webhooks',
  'content_revisions',
  'content_items',
  'content_types',
] as const;
