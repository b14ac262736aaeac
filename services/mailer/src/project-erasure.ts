/**
 * Every table of this service that holds a project's rows, in the order a deleted project's
 * rows are erased (issue #33). Providers go last: a retry half-way still has what identifies the project's vendors.
 */
export const ERASURE_TABLES = [
  'mail_webhook_receipts',
  'email_logs',
  'mail_suppressions',
  'mail_idempotency_keys',
  'email_templates',
  'mail_unsubscribe_secrets',
  'mail_providers',
] as const;
