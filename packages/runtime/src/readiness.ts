import { isDatabaseUp } from '@platform/db';
import type { Readiness } from '@platform/tenancy';
import type { ServiceDeps } from './service-definition';

/** `/readyz` for a service: its database must answer; the broker is reported, not required. */
export function readinessOf(deps: Pick<ServiceDeps, 'db' | 'bus'>): () => Promise<Readiness> {
  return async () => ({
    database: (await isDatabaseUp(deps.db)) ? 'up' : 'down',
    broker: deps.bus.status(),
  });
}
