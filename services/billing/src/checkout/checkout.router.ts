import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import { environmentOf } from '../shared/environment';
import { scopeOf } from '../shared/scope';
import { createCheckoutSchema, sessionIdSchema } from './checkout.schemas';
import { createCheckoutSession, getCheckoutSession } from './checkout.service';

export function checkoutHandlers(ctx: BillingContext): Record<'create' | 'get', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createCheckoutSchema, req.body);
      const scope = scopeOf(tenantOf(req), environmentOf(req));
      res.status(201).json(await createCheckoutSession(ctx, scope, req.auth!, input));
    },
    get: async (req, res) => {
      const id = parse(sessionIdSchema, req.params.id);
      res.json(await getCheckoutSession(ctx, scopeOf(tenantOf(req), environmentOf(req)), req.auth!, id));
    },
  };
}
