import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { parse, tenantOf } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import { logsQuerySchema, projectPathSchema, statsQuerySchema } from './usage.schemas';
import { assertOwnProject, getLogs, getStats } from './usage.service';

/** Logs and stats include the requests this replica has not written yet (see `catchUp`). */
export function usageHandlers(deps: ServiceDeps, runtime: LlmShared): Record<'logs' | 'stats', RequestHandler> {
  return {
    logs: async (req, res) => {
      const tenant = tenantOf(req);
      assertOwnProject(tenant, parse(projectPathSchema, req.params));
      const page = parse(logsQuerySchema, req.query);
      await runtime.logs.catchUp();
      res.json(await getLogs(deps.db, tenant, page));
    },
    stats: async (req, res) => {
      const tenant = tenantOf(req);
      assertOwnProject(tenant, parse(projectPathSchema, req.params));
      const range = parse(statsQuerySchema, req.query);
      await runtime.logs.catchUp();
      res.json(await getStats(deps.db, tenant, range));
    },
  };
}
