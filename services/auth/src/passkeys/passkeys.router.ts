import type { Request, RequestHandler } from 'express';
import { errors, parse, tenantOf, type AccessTokenClaims } from '@platform/tenancy';
import { clientOf } from '../shared/client';
import {
  authenticationOptionsSchema,
  authenticationVerifySchema,
  registrationVerifySchema,
  renameSchema,
} from './passkeys.schemas';
import * as passkeys from './passkeys.service';

function claimsOf(req: Request): AccessTokenClaims {
  if (!req.auth) throw errors.invalidSession();
  return req.auth;
}

const actorOf = (req: Request) => ({ client: clientOf(req), sessionId: req.auth?.sessionId });

type Handlers =
  | 'registrationOptions'
  | 'registrationVerify'
  | 'authenticationOptions'
  | 'authenticationVerify'
  | 'list'
  | 'rename'
  | 'remove';

export function passkeyHandlers(deps: passkeys.PasskeyDeps): Record<Handlers, RequestHandler<{ id: string }>> {
  return {
    registrationOptions: async (req, res) => {
      res.json(await passkeys.registrationOptions(deps, tenantOf(req), claimsOf(req)));
    },
    registrationVerify: async (req, res) => {
      const input = parse(registrationVerifySchema, req.body);
      res.status(201).json(await passkeys.verifyRegistration(deps, tenantOf(req), claimsOf(req), input, actorOf(req)));
    },
    authenticationOptions: async (req, res) => {
      const { email } = parse(authenticationOptionsSchema, req.body ?? {});
      res.json(await passkeys.authenticationOptions(deps, tenantOf(req), email));
    },
    authenticationVerify: async (req, res) => {
      const input = parse(authenticationVerifySchema, req.body);
      res.json(await passkeys.verifyAuthentication(deps, tenantOf(req), input, clientOf(req)));
    },
    list: async (req, res) => {
      res.json(await passkeys.listPasskeys(deps.db, claimsOf(req)));
    },
    rename: async (req, res) => {
      const { name } = parse(renameSchema, req.body);
      res.json(await passkeys.renamePasskey(deps.db, claimsOf(req), req.params.id, name));
    },
    remove: async (req, res) => {
      res.json(await passkeys.removePasskey(deps.db, claimsOf(req), req.params.id, actorOf(req)));
    },
  };
}
