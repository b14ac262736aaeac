import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { environmentTenantOf } from '../shared/environment-tenant';
import { listSubscriptionsSchema, subscriptionQuerySchema } from './subscriptions.schemas';
import { currentSubscription, listProjectSubscriptions } from './subscriptions.service';

export function subscriptionHandlers(db: Knex): Record<'current' | 'list', RequestHandler> {
  return {
    list: async (req, res) => {
      const query = parse(listSubscriptionsSchema, req.query);
      res.json(await listProjectSubscriptions(db, environmentTenantOf(tenantOf(req), query.environment), query));
    },
    current: async (req, res) => {
      const query = parse(subscriptionQuerySchema, req.query);
      res.json(
        await currentSubscription(db, environmentTenantOf(tenantOf(req), query.environment), query.customerEmail),
      );
    },
  };
}
