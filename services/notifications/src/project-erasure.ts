/**
 * Every table of this service that holds a project's rows, in the order a deleted project's
 * rows are erased (issue #33). Read receipts go with their notifications (cascade).
 */
export const ERASURE_TABLES = ['notification_events', 'notifications', 'notification_feeds'] as const;
