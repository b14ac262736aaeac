import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import { environmentOf } from '../shared/environment';
import { scopeOf } from '../shared/scope';
import { createPortalSchema } from './portal.schemas';
import { createPortalSession } from './portal.service';

export function portalHandlers(ctx: BillingContext): Record<'create', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createPortalSchema, req.body);
      const scope = scopeOf(tenantOf(req), environmentOf(req));
      res.status(201).json(await createPortalSession(ctx, scope, req.auth!, input));
    },
  };
}
