import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { clientOf } from '../shared/client';
import { registerSchema } from './registration.schemas';
import { register } from './registration.service';

export function registrationHandlers(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
): Record<'register', RequestHandler> {
  return {
    register: async (req, res) => {
      const { metadata = {}, ...input } = parse(registerSchema, req.body);
      const acceptLanguage = req.get('accept-language');
      res.status(201).json(
        await register(db, relay, issuer, tenantOf(req), {
          ...input,
          metadata,
          acceptLanguage,
          client: clientOf(req),
        }),
      );
    },
  };
}
