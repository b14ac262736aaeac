import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import { environmentOf } from '../shared/environment';
import { scopeOf } from '../shared/scope';
import { createPaymentIntentSchema, paymentIntentIdSchema } from './payment-intents.schemas';
import { createPaymentIntent, getPaymentIntent } from './payment-intents.service';

export function paymentIntentHandlers(ctx: BillingContext): Record<'create' | 'get', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createPaymentIntentSchema, req.body);
      const scope = scopeOf(tenantOf(req), environmentOf(req));
      res.status(201).json(await createPaymentIntent(ctx, scope, req.auth!, input));
    },
    get: async (req, res) => {
      const id = parse(paymentIntentIdSchema, req.params.id);
      res.json(await getPaymentIntent(ctx, scopeOf(tenantOf(req), environmentOf(req)), req.auth!, id));
    },
  };
}
