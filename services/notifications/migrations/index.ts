import type { Migration } from '@platform/db';
import { createNotifications } from './0001-notifications';
import { createNotificationEvents } from './0002-notification-events';

/** The Notifications service's schema changes, oldest first. */
export const migrations: Migration[] = [createNotifications, createNotificationEvents];
