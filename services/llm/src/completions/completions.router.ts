import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { SpendLimits } from '../limits/spend';
import type { VendorAccess } from '../providers/providers.service';
import type { CompletionLogWriter } from '../usage/completion-log-writer';
import { completionSchema } from './completions.schemas';
import { createCompletion } from './completions.service';

export function completionHandlers(
  vendors: VendorAccess,
  limits: SpendLimits,
  logs: CompletionLogWriter,
): Record<'create', RequestHandler> {
  return {
    create: async (req, res) => {
      res.json(await createCompletion(vendors, limits, logs, tenantOf(req), parse(completionSchema, req.body)));
    },
  };
}
