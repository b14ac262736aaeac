import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse } from '@platform/tenancy';
import { accessOf, auditContextOf, memberOf } from '../access/access.middleware';
import { acceptBody, invitationBody } from './invitations.schemas';
import * as invitations from './invitations.service';

export function invitationHandlers(deps: invitations.InvitationDeps, db: Knex = deps.db) {
  const create: RequestHandler = async (req, res) => {
    const input = parse(invitationBody, req.body);
    res.status(201).json(await invitations.invite(deps, auditContextOf(req), accessOf(req), memberOf(req), input));
  };

  const list: RequestHandler = async (req, res) => {
    res.json({ invitations: await invitations.listInvitations(db, accessOf(req).tenantId) });
  };

  const revoke: RequestHandler<{ orgId: string; invitationId: string }> = async (req, res) => {
    await invitations.revokeInvitation(db, auditContextOf(req), accessOf(req).tenantId, req.params.invitationId);
    res.status(204).end();
  };

  const accept: RequestHandler = async (req, res) => {
    const { token } = parse(acceptBody, req.body);
    res.json(await invitations.accept(db, auditContextOf(req), memberOf(req), token));
  };

  return { create, list, revoke, accept };
}
