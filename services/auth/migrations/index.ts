import type { Migration } from '@platform/db';

/** The Authentication service's schema changes, oldest first. */
export const migrations: Migration[] = [];
