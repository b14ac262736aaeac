import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf, type AccessTokenClaims } from '@platform/tenancy';
import { deleteMetadataSchema, lookupSchema, updateMeSchema } from './users.schemas';
import { getMe, lookupByEmail, removeMyMetadata, updateMe } from './users.service';

function claimsOf(req: Request): AccessTokenClaims {
  if (!req.auth) throw errors.invalidSession();
  return req.auth;
}

export function userHandlers(db: Knex): Record<'getMe' | 'updateMe' | 'removeMetadata' | 'lookup', RequestHandler> {
  return {
    getMe: async (req, res) => {
      res.json(await getMe(db, claimsOf(req)));
    },
    updateMe: async (req, res) => {
      res.json(await updateMe(db, claimsOf(req), parse(updateMeSchema, req.body)));
    },
    removeMetadata: async (req, res) => {
      res.json(await removeMyMetadata(db, claimsOf(req), parse(deleteMetadataSchema, req.body).metadata ?? {}));
    },
    lookup: async (req, res) => {
      res.json(await lookupByEmail(db, tenantOf(req), parse(lookupSchema, req.query).email));
    },
  };
}
