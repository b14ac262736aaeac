import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import { checkFallbacks } from '../gateway/chat.service';
import type { LlmShared } from '../llm-shared';
import { fallbacksSchema, limitsSchema } from '../gateway/chat.schemas';
import { readFallbacks, writeFallbacks, type LimitSettings } from './limits.repository';
import { getLimits, putLimits } from './limits.service';

export function limitHandlers(
  deps: ServiceDeps,
  runtime: LlmShared,
): Record<'getLimits' | 'putLimits' | 'getFallbacks' | 'putFallbacks', RequestHandler> {
  return {
    getLimits: async (req, res) => {
      res.json(await getLimits(deps.db, tenantOf(req)));
    },
    putLimits: async (req, res) => {
      const tenant = tenantOf(req);
      const limits = await putLimits(deps.db, tenant, parse<LimitSettings>(limitsSchema, req.body));
      runtime.admissions.forget(tenant); // this replica's lease was drawn under the old limits
      res.json(limits);
    },
    getFallbacks: async (req, res) => {
      res.json({ fallbacks: await readFallbacks(deps.db, tenantOf(req)) });
    },
    putFallbacks: async (req, res) => {
      const { fallbacks } = parse(fallbacksSchema, req.body);
      checkFallbacks(runtime, fallbacks);
      await writeFallbacks(deps.db, tenantOf(req), fallbacks);
      runtime.admissions.forget(tenantOf(req)); // its lease carries the old default fallbacks
      res.json({ fallbacks });
    },
  };
}
