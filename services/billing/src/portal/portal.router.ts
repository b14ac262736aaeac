import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import { parse, tenantOf } from '@platform/tenancy';
import { environmentOf } from '../shared/environment';
import { environmentTenantOf } from '../shared/environment-tenant';
import type { StripeClients } from '../stripe/stripe-clients';
import { createPortalSchema } from './portal.schemas';
import { createPortalSession } from './portal.service';

export function portalHandlers(db: Knex, clients: StripeClients, logger: Logger): Record<'create', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createPortalSchema, req.body);
      const scope = environmentTenantOf(tenantOf(req), environmentOf(req));
      res.status(201).json(await createPortalSession(db, clients, logger, scope, req.auth!, input));
    },
  };
}
