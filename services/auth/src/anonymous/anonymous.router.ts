import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { clientOf } from '../shared/client';
import { anonymousSchema, convertSchema } from './anonymous.schemas';
import { convertWithPassword, signInAnonymously } from './anonymous.service';

export function anonymousHandlers(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
): Record<'signIn' | 'convert', RequestHandler> {
  return {
    signIn: async (req, res) => {
      const { metadata = {} } = parse(anonymousSchema, req.body ?? {});
      res.status(201).json(await signInAnonymously(db, issuer, tenantOf(req), metadata, clientOf(req)));
    },
    convert: async (req, res) => {
      if (!req.auth) throw errors.invalidSession();
      const input = parse(convertSchema, req.body);
      res.json(await convertWithPassword(db, relay, issuer, tenantOf(req), req.auth, input, clientOf(req)));
    },
  };
}
