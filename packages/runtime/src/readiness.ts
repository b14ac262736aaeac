import { isDatabaseUp } from '@platform/db';
import type { Readiness } from '@platform/http';
import type { ServiceDeps } from './service-definition';

/**
 * `/readyz` for a service: its database must answer; the broker is reported, not required.
 * Once the service is stopping it is red at once (see `startService`'s stop).
 */
export function readinessOf(deps: Pick<ServiceDeps, 'db' | 'bus' | 'lifecycle'>): () => Promise<Readiness> {
  return async () =>
    deps.lifecycle?.draining
      ? { database: 'up', broker: deps.bus.status(), draining: true }
      : { database: (await isDatabaseUp(deps.db)) ? 'up' : 'down', broker: deps.bus.status() };
}
