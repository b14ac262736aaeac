import type { Request, RequestHandler } from 'express';
import { errors, parse, tenantOf, type AccessTokenClaims } from '@platform/tenancy';
import type { AuthContext } from '../context';
import { deleteMetadataSchema, lookupSchema, updateMeSchema } from './users.schemas';
import { getMe, lookupByEmail, removeMyMetadata, updateMe } from './users.service';

function claimsOf(req: Request): AccessTokenClaims {
  if (!req.auth) throw errors.invalidSession();
  return req.auth;
}

export function userHandlers(
  ctx: AuthContext,
): Record<'getMe' | 'updateMe' | 'removeMetadata' | 'lookup', RequestHandler> {
  return {
    getMe: async (req, res) => {
      res.json(await getMe(ctx, claimsOf(req)));
    },
    updateMe: async (req, res) => {
      res.json(await updateMe(ctx, claimsOf(req), parse(updateMeSchema, req.body)));
    },
    removeMetadata: async (req, res) => {
      res.json(await removeMyMetadata(ctx, claimsOf(req), parse(deleteMetadataSchema, req.body).metadata ?? {}));
    },
    lookup: async (req, res) => {
      res.json(await lookupByEmail(ctx, tenantOf(req), parse(lookupSchema, req.query).email));
    },
  };
}
