import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import { parse, tenantOf } from '@platform/tenancy';
import { environmentOf } from '../shared/environment';
import { environmentTenantOf } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { createPaymentIntentSchema, paymentIntentIdSchema } from './payment-intents.schemas';
import { createPaymentIntent, getPaymentIntent } from './payment-intents.service';

export function paymentIntentHandlers(
  db: Knex,
  clients: StripeClients,
  logger: Logger,
): Record<'create' | 'get', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createPaymentIntentSchema, req.body);
      const scope = environmentTenantOf(tenantOf(req), environmentOf(req));
      res.status(201).json(await createPaymentIntent(db, clients, logger, scope, req.auth!, input));
    },
    get: async (req, res) => {
      const id = parse(paymentIntentIdSchema, req.params.id);
      res.json(await getPaymentIntent(clients, environmentTenantOf(tenantOf(req), environmentOf(req)), req.auth!, id));
    },
  };
}
