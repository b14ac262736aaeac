import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf } from '@platform/tenancy';
import { eventsQuerySchema } from './audit.schemas';
import { listMyEvents, listProjectEvents, listUserEvents } from './audit.service';

export function auditHandlers(db: Knex): Record<'project' | 'user' | 'mine', RequestHandler<{ userId: string }>> {
  return {
    project: async (req, res) => {
      res.json(await listProjectEvents(db, tenantOf(req), parse(eventsQuerySchema, req.query)));
    },
    user: async (req, res) => {
      res.json(await listUserEvents(db, tenantOf(req), req.params.userId, parse(eventsQuerySchema, req.query)));
    },
    mine: async (req, res) => {
      if (!req.auth) throw errors.invalidSession();
      res.json(await listMyEvents(db, req.auth, parse(eventsQuerySchema, req.query)));
    },
  };
}
