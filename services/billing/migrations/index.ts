import type { Migration } from '@platform/db';

/** The Billing service's schema changes, oldest first. */
export const migrations: Migration[] = [];
