import {
  projectErasureJob,
  userErasureJob,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceParts,
} from '@platform/runtime';
import { migrations } from '../migrations';
import { loadNotificationsConfig, type NotificationsConfig } from './config';
import { startExpirySweep } from './live/live.expiry';
import { LiveHub } from './live/live.hub';
import { startPurgeSchedule } from './notifications/notifications.purge';
import { eraseUser } from './notifications/user-erasure';
import { openapi } from './openapi';
import { ERASURE_TABLES } from './project-erasure';
import { createRoutes } from './routes';

/** What the HTTP side and the jobs of one instance share, built once in `build`. */
export interface NotificationsShared {
  config: NotificationsConfig;
  /** The live streams of this process; its bus subscription and heartbeat are the `live` job. */
  hub: LiveHub;
}

/** The composition root: config, the live hub, the route table and the jobs. */
export function buildNotifications(deps: ServiceDeps): ServiceParts<NotificationsShared> {
  const config = loadNotificationsConfig(deps.env);
  const hub = new LiveHub(deps.db, deps.bus, deps.logger, config.live);
  return {
    routes: createRoutes(deps, hub),
    openapi,
    shared: { config, hub },
    jobs: [
      {
        name: 'live',
        async start() {
          await hub.start();
          return () => hub.close();
        },
      },
      { name: 'purge', start: async () => startPurgeSchedule(deps.db, deps.logger, config) },
      projectErasureJob(deps, 'notifications', ERASURE_TABLES),
      userErasureJob(deps, 'notifications', eraseUser),
      {
        name: 'expiry',
        start: async () =>
          startExpirySweep(deps.db, deps.logger, config.live, (tenant, changes) => hub.announce(tenant, changes)),
      },
    ],
    close: () => hub.close(),
  };
}

export const notificationsService: ServiceDefinition<NotificationsShared> = {
  name: 'notifications',
  defaultPort: 4006,
  migrations,
  build: buildNotifications,
};
