import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import { environmentOf } from '../shared/environment';
import { putStripeConfigSchema } from './stripe-config.schemas';
import { getStripeConfig, putStripeConfig } from './stripe-config.service';

export function stripeConfigHandlers(ctx: BillingContext): Record<'put' | 'get', RequestHandler> {
  return {
    put: async (req, res) => {
      const input = parse(putStripeConfigSchema, req.body);
      const environment = input.environment ?? environmentOf(req);
      res.json(await putStripeConfig(ctx, tenantOf(req), environment, input));
    },
    get: async (req, res) => {
      res.json(await getStripeConfig(ctx, tenantOf(req), environmentOf(req)));
    },
  };
}
