import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import { completionSchema } from './completions.schemas';
import { createCompletion } from './completions.service';

export function completionHandlers(deps: ServiceDeps, runtime: LlmShared): Record<'create', RequestHandler> {
  return {
    create: async (req, res) => {
      res.json(await createCompletion(deps, runtime, tenantOf(req), parse(completionSchema, req.body)));
    },
  };
}
