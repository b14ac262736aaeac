import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import type { PlatformDirectory } from '@platform/directory';
import { parse } from '@platform/tenancy';
import { environmentOf } from '../shared/environment';
import type { StripeClients } from '../stripe/stripe-clients';
import { webhookParamsSchema } from './webhooks.schemas';
import { receiveStripeEvent } from './webhooks.service';

export function webhookHandlers(
  db: Knex,
  clients: StripeClients,
  directory: PlatformDirectory,
  logger: Logger,
): Record<'receive', RequestHandler> {
  return {
    receive: async (req, res) => {
      const params = parse(webhookParamsSchema, req.params);
      // The route reads the body as bytes (`boundedRawBody`): Stripe's signature is checked on them before they are parsed.
      const rawBody = Buffer.isBuffer(req.body) ? req.body : undefined;
      const result = await receiveStripeEvent(db, clients, directory, logger, {
        tenantId: params.tenant_id,
        projectId: params.project_id,
        environment: environmentOf(req),
        rawBody,
        signature: req.get('stripe-signature'),
      });
      res.json(result);
    },
  };
}
