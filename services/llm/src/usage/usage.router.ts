import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import type { CompletionLogWriter } from './completion-log-writer';
import { dailyQuerySchema, logsQuerySchema, projectPathSchema, statsQuerySchema } from './usage.schemas';
import { assertOwnProject, getDailyUsage, getLogs, getStats } from './usage.service';

export function usageHandlers(db: Knex, logs: CompletionLogWriter): Record<'logs' | 'stats' | 'daily', RequestHandler> {
  return {
    daily: async (req, res) => {
      res.json(await getDailyUsage(db, logs, tenantOf(req), parse(dailyQuerySchema, req.query)));
    },
    logs: async (req, res) => {
      const tenant = tenantOf(req);
      assertOwnProject(tenant, parse(projectPathSchema, req.params));
      res.json(await getLogs(db, logs, tenant, parse(logsQuerySchema, req.query)));
    },
    stats: async (req, res) => {
      const tenant = tenantOf(req);
      assertOwnProject(tenant, parse(projectPathSchema, req.params));
      res.json(await getStats(db, logs, tenant, parse(statsQuerySchema, req.query)));
    },
  };
}
