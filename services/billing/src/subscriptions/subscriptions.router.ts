import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import { scopeOf } from '../shared/scope';
import { subscriptionQuerySchema } from './subscriptions.schemas';
import { currentSubscription } from './subscriptions.service';

export function subscriptionHandlers(ctx: BillingContext): Record<'current', RequestHandler> {
  return {
    current: async (req, res) => {
      const query = parse(subscriptionQuerySchema, req.query);
      res.json(await currentSubscription(ctx, scopeOf(tenantOf(req), query.environment), query.customerEmail));
    },
  };
}
