import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import { parse, tenantOf } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { clientOf } from '../shared/client';
import { otpRequestSchema, otpVerifySchema, type OtpVerifyInput } from './email-sign-in.schemas';
import { requestEmailSignIn, verifyEmailSignIn } from './email-sign-in.service';

export function emailSignInHandlers(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
  floor: { minMs: number; logger: Logger },
): Record<'request' | 'verify', RequestHandler> {
  return {
    request: async (req, res) => {
      const { email } = parse(otpRequestSchema, req.body);
      res.json(await requestEmailSignIn(db, relay, issuer, floor, tenantOf(req), email, clientOf(req)));
    },
    verify: async (req, res) => {
      const input = parse(otpVerifySchema, req.body) as OtpVerifyInput;
      res.json(await verifyEmailSignIn(db, issuer, tenantOf(req), input, clientOf(req)));
    },
  };
}
