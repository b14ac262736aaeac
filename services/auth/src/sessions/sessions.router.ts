import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import { parse, tenantOf } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { clientOf } from '../shared/client';
import { loginSchema, refreshSchema } from './sessions.schemas';
import { login, logout, refresh } from './sessions.service';

export function sessionHandlers(
  db: Knex,
  issuer: Issuer,
  logger: Logger,
): Record<'login' | 'refresh' | 'logout', RequestHandler> {
  return {
    login: async (req, res) => {
      res.json(await login(db, issuer, tenantOf(req), parse(loginSchema, req.body), clientOf(req)));
    },
    refresh: async (req, res) => {
      const { refreshToken } = parse(refreshSchema, req.body);
      res.json(await refresh(db, issuer, logger, tenantOf(req), refreshToken, clientOf(req)));
    },
    logout: async (req, res) => {
      const { refreshToken } = parse(refreshSchema, req.body);
      res.json(await logout(db, tenantOf(req), refreshToken, { client: clientOf(req) }));
    },
  };
}
