import type { Migration } from '@platform/db';
import { createNotifications } from './0001-notifications';

/** The Notifications service's schema changes, oldest first. */
export const migrations: Migration[] = [createNotifications];
