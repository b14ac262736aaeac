import type { ServiceDeps } from '@platform/runtime';
import { loadNotificationsConfig, type NotificationsConfig } from './config';
import { LiveHub } from './live/live.hub';

/** What the HTTP app and the background work of one service instance share. */
export interface NotificationsRuntime {
  config: NotificationsConfig;
  /** Started (bus subscription, heartbeat) and closed by `startBackground`. */
  hub: LiveHub;
}

const runtimes = new WeakMap<ServiceDeps, NotificationsRuntime>();

export function notificationsRuntime(deps: ServiceDeps): NotificationsRuntime {
  let runtime = runtimes.get(deps);
  if (!runtime) {
    const config = loadNotificationsConfig(deps.env);
    runtime = { config, hub: new LiveHub(deps.db, deps.bus, deps.logger, config.live) };
    runtimes.set(deps, runtime);
  }
  return runtime;
}
