import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { changePasswordSchema, emailOnlySchema, resetPasswordSchema } from './passwords.schemas';
import { changePassword, forgotPassword, resetPassword, type ResponseFloor } from './passwords.service';

export function passwordHandlers(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
  floor: ResponseFloor,
): Record<'forgot' | 'reset' | 'change', RequestHandler> {
  return {
    forgot: async (req, res) => {
      const { email } = parse(emailOnlySchema, req.body);
      res.json(await forgotPassword(db, relay, issuer.appUrl, floor, tenantOf(req), email));
    },
    reset: async (req, res) => {
      res.json(await resetPassword(db, issuer.passwords, tenantOf(req), parse(resetPasswordSchema, req.body)));
    },
    change: async (req, res) => {
      if (!req.auth) throw errors.invalidSession();
      res.json(await changePassword(db, issuer.passwords, req.auth, parse(changePasswordSchema, req.body)));
    },
  };
}
