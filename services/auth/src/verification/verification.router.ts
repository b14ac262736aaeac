import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import type { AuthContext } from '../context';
import { emailOnlySchema } from '../passwords/passwords.schemas';
import { verifyEmailSchema } from './verification.schemas';
import { resendVerification, verifyEmail } from './verification.service';

export function verificationHandlers(ctx: AuthContext): Record<'verify' | 'resend', RequestHandler> {
  return {
    verify: async (req, res) => {
      res.json(await verifyEmail(ctx, req.tenant, parse(verifyEmailSchema, req.body).token));
    },
    resend: async (req, res) => {
      res.json(await resendVerification(ctx, tenantOf(req), parse(emailOnlySchema, req.body).email));
    },
  };
}
