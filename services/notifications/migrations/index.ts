import type { Migration } from '@platform/db';

/** The Notifications service's schema changes, oldest first. */
export const migrations: Migration[] = [];
