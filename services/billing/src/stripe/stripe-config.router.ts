import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import { environmentOf } from '../shared/environment';
import type { StripeClients } from './stripe-clients';
import { putStripeConfigSchema } from './stripe-config.schemas';
import { getStripeConfig, putStripeConfig } from './stripe-config.service';

export function stripeConfigHandlers(
  db: Knex,
  secrets: SecretBox,
  clients: StripeClients,
): Record<'put' | 'get', RequestHandler> {
  return {
    put: async (req, res) => {
      const input = parse(putStripeConfigSchema, req.body);
      const environment = input.environment ?? environmentOf(req);
      res.json(await putStripeConfig(db, secrets, clients, tenantOf(req), environment, input));
    },
    get: async (req, res) => {
      res.json(await getStripeConfig(db, tenantOf(req), environmentOf(req)));
    },
  };
}
