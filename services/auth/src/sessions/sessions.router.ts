import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { AuthContext } from '../context';
import { loginSchema, refreshSchema } from './sessions.schemas';
import { login, logout, refresh } from './sessions.service';

export function sessionHandlers(ctx: AuthContext): Record<'login' | 'refresh' | 'logout', RequestHandler> {
  return {
    login: async (req, res) => {
      res.json(await login(ctx, tenantOf(req), parse(loginSchema, req.body)));
    },
    refresh: async (req, res) => {
      res.json(await refresh(ctx, tenantOf(req), parse(refreshSchema, req.body).refreshToken));
    },
    logout: async (req, res) => {
      res.json(await logout(ctx, tenantOf(req), parse(refreshSchema, req.body).refreshToken));
    },
  };
}
