import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { startExpirySweep } from './live/live.expiry';
import { startPurgeSchedule } from './notifications/notifications.purge';
import { notificationsRuntime } from './runtime';

export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  defaultPort: 4006,
  migrations,
  createApp,
  async startBackground(deps) {
    const { config, hub } = notificationsRuntime(deps);
    await hub.start();
    const stopPurge = startPurgeSchedule(deps.db, deps.logger, config);
    const stopExpiry = startExpirySweep(deps.db, deps.logger, config.live, (tenant, changes) =>
      hub.announce(tenant, changes),
    );
    return async () => {
      await stopExpiry();
      await stopPurge();
      await hub.close();
    };
  },
};
