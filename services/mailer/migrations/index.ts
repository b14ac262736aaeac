import type { Migration } from '@platform/db';

/** The Mailer service's schema changes, oldest first. */
export const migrations: Migration[] = [];
