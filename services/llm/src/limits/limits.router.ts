import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import { fallbacksSchema, limitsSchema } from '../gateway/chat.schemas';
import type { LimitSettings } from './limits.repository';
import { getFallbacks, getLimits, putFallbacks, putLimits } from './limits.service';

export function limitHandlers(
  deps: ServiceDeps,
  runtime: LlmShared,
): Record<'getLimits' | 'putLimits' | 'getFallbacks' | 'putFallbacks', RequestHandler> {
  return {
    getLimits: async (req, res) => {
      res.json(await getLimits(deps.db, runtime, tenantOf(req)));
    },
    putLimits: async (req, res) => {
      res.json(await putLimits(deps.db, runtime, tenantOf(req), parse<LimitSettings>(limitsSchema, req.body)));
    },
    getFallbacks: async (req, res) => {
      res.json(await getFallbacks(deps.db, tenantOf(req)));
    },
    putFallbacks: async (req, res) => {
      res.json(await putFallbacks(deps.db, runtime, tenantOf(req), parse(fallbacksSchema, req.body).fallbacks));
    },
  };
}
