import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import { parse, tenantOf } from '@platform/tenancy';
import { environmentOf } from '../shared/environment';
import { environmentTenantOf } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { createCheckoutSchema, sessionIdSchema } from './checkout.schemas';
import { createCheckoutSession, getCheckoutSession } from './checkout.service';

export function checkoutHandlers(
  db: Knex,
  clients: StripeClients,
  logger: Logger,
): Record<'create' | 'get', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createCheckoutSchema, req.body);
      const scope = environmentTenantOf(tenantOf(req), environmentOf(req));
      res.status(201).json(await createCheckoutSession(db, clients, logger, scope, req.auth!, input));
    },
    get: async (req, res) => {
      const id = parse(sessionIdSchema, req.params.id);
      res.json(
        await getCheckoutSession(clients, environmentTenantOf(tenantOf(req), environmentOf(req)), req.auth!, id),
      );
    },
  };
}
