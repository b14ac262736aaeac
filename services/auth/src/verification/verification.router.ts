import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { emailOnlySchema } from '../passwords/passwords.schemas';
import { clientOf } from '../shared/client';
import { verifyEmailSchema } from './verification.schemas';
import { resendVerification, verifyEmail } from './verification.service';

export function verificationHandlers(
  db: Knex,
  relay: { kick(): void },
  appUrl: string,
): Record<'verify' | 'resend', RequestHandler> {
  return {
    verify: async (req, res) => {
      res.json(await verifyEmail(db, req.tenant, parse(verifyEmailSchema, req.body).token, clientOf(req)));
    },
    resend: async (req, res) => {
      res.json(await resendVerification(db, relay, appUrl, tenantOf(req), parse(emailOnlySchema, req.body).email));
    },
  };
}
