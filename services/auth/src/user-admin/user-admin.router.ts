import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { listUsersSchema, userIdParams } from './user-admin.schemas';
import {
  deleteProjectUser,
  getProjectUser,
  listProjectUsers,
  resendUserVerification,
  setUserDisabled,
} from './user-admin.service';

/** The project's own administration of its users (a console, or the builder's server with the keys). */
export function userAdminHandlers(
  db: Knex,
  relay: { kick(): void },
  appUrl: string,
): Record<'list' | 'get' | 'disable' | 'enable' | 'remove' | 'resendVerification', RequestHandler> {
  const idOf = (params: unknown) => parse(userIdParams, params).user_id;
  return {
    list: async (req, res) => {
      res.json(await listProjectUsers(db, tenantOf(req), parse(listUsersSchema, req.query)));
    },
    get: async (req, res) => {
      res.json(await getProjectUser(db, tenantOf(req), idOf(req.params)));
    },
    disable: async (req, res) => {
      res.json(await setUserDisabled(db, tenantOf(req), idOf(req.params), true));
    },
    enable: async (req, res) => {
      res.json(await setUserDisabled(db, tenantOf(req), idOf(req.params), false));
    },
    remove: async (req, res) => {
      await deleteProjectUser(db, relay, tenantOf(req), idOf(req.params));
      res.status(204).end();
    },
    resendVerification: async (req, res) => {
      res.json(await resendUserVerification(db, relay, appUrl, tenantOf(req), idOf(req.params)));
    },
  };
}
