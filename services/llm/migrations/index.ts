import type { Migration } from '@platform/db';

/** The LLM service's schema changes, oldest first. */
export const migrations: Migration[] = [];
