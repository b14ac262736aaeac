import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf, type AccessTokenClaims } from '@platform/tenancy';
import { clientOf } from '../shared/client';
import { endScopeSchema } from './user-sessions.schemas';
import * as sessions from './user-sessions.service';

function claimsOf(req: Request): AccessTokenClaims {
  if (!req.auth) throw errors.invalidSession();
  return req.auth;
}

const ended = (ids: string[]) => ({
  success: true as const,
  message: ids.length === 1 ? 'Session ended' : `${ids.length} sessions ended`,
  ended: ids,
});

type Params = { id: string; userId: string };

/** `/sessions` for the signed-in user (bearer), `/users/{userId}/sessions` for the project (keys). */
export function userSessionHandlers(db: Knex) {
  const mine: Record<'list' | 'get' | 'end' | 'endMany', RequestHandler<Params>> = {
    list: async (req, res) => {
      res.json(await sessions.listMySessions(db, claimsOf(req)));
    },
    get: async (req, res) => {
      res.json(await sessions.getMySession(db, claimsOf(req), req.params.id));
    },
    end: async (req, res) => {
      const claims = claimsOf(req);
      const actor = { client: clientOf(req), sessionId: claims.sessionId };
      res.json(ended([await sessions.endMySession(db, claims, req.params.id, actor)]));
    },
    endMany: async (req, res) => {
      const { scope } = parse(endScopeSchema, req.query);
      const claims = claimsOf(req);
      const actor = { client: clientOf(req), sessionId: claims.sessionId };
      res.json(ended(await sessions.endMySessions(db, claims, scope, actor)));
    },
  };
  const ofUser: Record<'list' | 'get' | 'end' | 'endAll', RequestHandler<Params>> = {
    list: async (req, res) => {
      res.json(await sessions.listUserSessions(db, tenantOf(req), req.params.userId));
    },
    get: async (req, res) => {
      res.json(await sessions.getUserSession(db, tenantOf(req), req.params.userId, req.params.id));
    },
    end: async (req, res) => {
      const actor = { client: clientOf(req) };
      res.json(ended([await sessions.endUserSession(db, tenantOf(req), req.params.userId, req.params.id, actor)]));
    },
    endAll: async (req, res) => {
      res.json(ended(await sessions.endUserSessions(db, tenantOf(req), req.params.userId, { client: clientOf(req) })));
    },
  };
  return { mine, ofUser };
}
