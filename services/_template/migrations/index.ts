import type { Migration } from '@platform/db';
import { createNotes } from './0001-notes';

/** The service's schema changes, oldest first; never reorder or rename an applied one. */
export const migrations: Migration[] = [createNotes];
