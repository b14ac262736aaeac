import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { clientOf } from '../shared/client';
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
      const input = parse(resetPasswordSchema, req.body);
      res.json(await resetPassword(db, issuer.passwords, tenantOf(req), input, clientOf(req)));
    },
    change: async (req, res) => {
      if (!req.auth) throw errors.invalidSession();
      const input = parse(changePasswordSchema, req.body);
      const actor = { client: clientOf(req), sessionId: req.auth.sessionId };
      res.json(await changePassword(db, issuer.passwords, req.auth, input, actor));
    },
  };
}
