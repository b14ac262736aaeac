import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import { dailyQuerySchema, logsQuerySchema, projectPathSchema, statsQuerySchema } from './usage.schemas';
import { assertOwnProject, getDailyUsage, getLogs, getStats } from './usage.service';

export function usageHandlers(
  deps: ServiceDeps,
  runtime: LlmShared,
): Record<'logs' | 'stats' | 'daily', RequestHandler> {
  return {
    daily: async (req, res) => {
      res.json(await getDailyUsage(deps.db, runtime.logs, tenantOf(req), parse(dailyQuerySchema, req.query)));
    },
    logs: async (req, res) => {
      const tenant = tenantOf(req);
      assertOwnProject(tenant, parse(projectPathSchema, req.params));
      res.json(await getLogs(deps.db, runtime.logs, tenant, parse(logsQuerySchema, req.query)));
    },
    stats: async (req, res) => {
      const tenant = tenantOf(req);
      assertOwnProject(tenant, parse(projectPathSchema, req.params));
      res.json(await getStats(deps.db, runtime.logs, tenant, parse(statsQuerySchema, req.query)));
    },
  };
}
