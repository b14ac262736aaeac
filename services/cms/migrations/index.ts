import type { Migration } from '@platform/db';

/** The CMS service's schema changes, oldest first. */
export const migrations: Migration[] = [];
