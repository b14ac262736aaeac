import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { loadNotificationsConfig } from './config';
import { startPurgeSchedule } from './notifications/notifications.purge';

export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  defaultPort: 4006,
  migrations,
  createApp,
  async startBackground(deps) {
    return startPurgeSchedule(deps.db, deps.logger, loadNotificationsConfig(deps.env));
  },
};
