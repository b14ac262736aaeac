import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { emailOnlySchema, resetPasswordSchema } from './passwords.schemas';
import { forgotPassword, resetPassword, type ResponseFloor } from './passwords.service';

export function passwordHandlers(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
  floor: ResponseFloor,
): Record<'forgot' | 'reset', RequestHandler> {
  return {
    forgot: async (req, res) => {
      const { email } = parse(emailOnlySchema, req.body);
      res.json(await forgotPassword(db, relay, issuer.appUrl, floor, tenantOf(req), email));
    },
    reset: async (req, res) => {
      res.json(await resetPassword(db, issuer.passwords, tenantOf(req), parse(resetPasswordSchema, req.body)));
    },
  };
}
