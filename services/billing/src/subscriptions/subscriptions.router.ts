import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { scopeOf } from '../shared/scope';
import { subscriptionQuerySchema } from './subscriptions.schemas';
import { currentSubscription } from './subscriptions.service';

export function subscriptionHandlers(db: Knex): Record<'current', RequestHandler> {
  return {
    current: async (req, res) => {
      const query = parse(subscriptionQuerySchema, req.query);
      res.json(await currentSubscription(db, scopeOf(tenantOf(req), query.environment), query.customerEmail));
    },
  };
}
