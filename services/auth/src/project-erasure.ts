/**
 * Every table of this service that holds a project's rows, in the order a deleted project's
 * rows are erased (issue #33). Tokens go before their users so their batches stay small.
 */
export const ERASURE_TABLES = ['refresh_tokens', 'account_tokens', 'login_failures', 'users'] as const;
