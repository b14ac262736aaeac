import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { AuthContext } from '../context';
import { emailOnlySchema, resetPasswordSchema } from './passwords.schemas';
import { forgotPassword, resetPassword } from './passwords.service';

export function passwordHandlers(ctx: AuthContext): Record<'forgot' | 'reset', RequestHandler> {
  return {
    forgot: async (req, res) => {
      res.json(await forgotPassword(ctx, tenantOf(req), parse(emailOnlySchema, req.body).email));
    },
    reset: async (req, res) => {
      res.json(await resetPassword(ctx, tenantOf(req), parse(resetPasswordSchema, req.body)));
    },
  };
}
