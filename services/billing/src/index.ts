import {
  projectErasureJob,
  userErasureJob,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceParts,
} from '@platform/runtime';
import { migrations } from '../migrations';
import { loadBillingConfig, type BillingConfig } from './config';
import { eraseUser } from './customers/user-erasure';
import { openapi } from './openapi';
import { ERASURE_TABLES } from './project-erasure';
import { createRoutes } from './routes';
import { StripeClients } from './stripe/stripe-clients';

/** What the HTTP side of one instance shares, built once in `build`. */
export interface BillingShared {
  config: BillingConfig;
  /** One Stripe client per project and environment, cached; a key change drops its entry. */
  clients: StripeClients;
}

/** The composition root: config, the Stripe clients and the route table, and the project and user erasure jobs. */
export function buildBilling(deps: ServiceDeps): ServiceParts<BillingShared> {
  const config = loadBillingConfig(deps.env);
  const clients = new StripeClients(deps.db, deps.secrets, config);
  return {
    routes: createRoutes(deps, config, clients),
    openapi,
    jobs: [projectErasureJob(deps, 'billing', ERASURE_TABLES), userErasureJob(deps, 'billing', eraseUser)],
    shared: { config, clients },
    close: async () => undefined,
  };
}

export const billingService: ServiceDefinition<BillingShared> = {
  name: 'billing',
  defaultPort: 4002,
  migrations,
  build: buildBilling,
};

export { loadBillingConfig, type BillingConfig } from './config';
