import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { fallbacksSchema, limitsSchema } from '../gateway/chat.schemas';
import type { LimitSettings } from './limits.repository';
import { getFallbacks, getLimits, putFallbacks, putLimits } from './limits.service';
import type { SpendLimits } from './spend';

export function limitHandlers(
  db: Knex,
  limits: SpendLimits,
  maxFallbacks: number,
): Record<'getLimits' | 'putLimits' | 'getFallbacks' | 'putFallbacks', RequestHandler> {
  return {
    getLimits: async (req, res) => {
      res.json(await getLimits(db, limits, tenantOf(req)));
    },
    putLimits: async (req, res) => {
      res.json(await putLimits(db, limits, tenantOf(req), parse<LimitSettings>(limitsSchema, req.body)));
    },
    getFallbacks: async (req, res) => {
      res.json(await getFallbacks(db, tenantOf(req)));
    },
    putFallbacks: async (req, res) => {
      const { fallbacks } = parse(fallbacksSchema, req.body);
      res.json(await putFallbacks(db, limits, maxFallbacks, tenantOf(req), fallbacks));
    },
  };
}
