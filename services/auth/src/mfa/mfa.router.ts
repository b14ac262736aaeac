import type { Request, RequestHandler } from 'express';
import { errors, parse, tenantOf, type AccessTokenClaims } from '@platform/tenancy';
import { clientOf } from '../shared/client';
import { activateSchema, secondFactorSchema, verifySchema } from './mfa.schemas';
import * as mfa from './mfa.service';

function claimsOf(req: Request): AccessTokenClaims {
  if (!req.auth) throw errors.invalidSession();
  return req.auth;
}

const actorOf = (req: Request) => ({ client: clientOf(req), sessionId: req.auth?.sessionId });

type Handlers = 'enroll' | 'activate' | 'list' | 'remove' | 'regenerate' | 'verify';

export function mfaHandlers(deps: mfa.MfaDeps): Record<Handlers, RequestHandler<{ id: string }>> {
  return {
    enroll: async (req, res) => {
      res.status(201).json(await mfa.enrollTotp(deps, claimsOf(req)));
    },
    activate: async (req, res) => {
      const { code } = parse(activateSchema, req.body);
      res.json(await mfa.activateTotp(deps, claimsOf(req), req.params.id, code, actorOf(req)));
    },
    list: async (req, res) => {
      res.json(await mfa.listFactors(deps.db, claimsOf(req)));
    },
    remove: async (req, res) => {
      const input = parse(secondFactorSchema, req.body ?? {});
      res.json(await mfa.removeFactor(deps, claimsOf(req), req.params.id, input, actorOf(req)));
    },
    regenerate: async (req, res) => {
      const input = parse(secondFactorSchema, req.body);
      res.json(await mfa.regenerateRecoveryCodes(deps, claimsOf(req), input, actorOf(req)));
    },
    verify: async (req, res) => {
      res.json(await mfa.verifyChallenge(deps, tenantOf(req), parse(verifySchema, req.body), clientOf(req)));
    },
  };
}
