import type { RequestHandler } from 'express';
import { tenantOf } from '@platform/tenancy';
import { environmentOf } from '../shared/environment';
import { environmentTenantOf } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { getAccountStatus } from './account.service';

export function accountHandlers(clients: StripeClients): Record<'status', RequestHandler> {
  return {
    // SPEC: here, unlike everywhere else, the default environment is `live`.
    status: async (req, res) => {
      const scope = environmentTenantOf(tenantOf(req), environmentOf(req, 'live'));
      res.json({ success: true, ...(await getAccountStatus(clients, scope)) });
    },
  };
}
