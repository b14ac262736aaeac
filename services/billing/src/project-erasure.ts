/**
 * Every table of this service that holds a project's rows, in the order a deleted project's
 * rows are erased (issue #33). The tenant's Stripe keys go last, so a retry still finds what it needs.
 */
export const ERASURE_TABLES = ['subscriptions', 'customers', 'stripe_events', 'stripe_configs'] as const;
