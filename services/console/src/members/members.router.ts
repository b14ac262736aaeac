import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse } from '@platform/tenancy';
import { accessOf, auditContextOf, memberOf } from '../access/access.middleware';
import { roleBody } from './members.schemas';
import * as members from './members.service';

export function memberHandlers(db: Knex) {
  const list: RequestHandler = async (req, res) => {
    res.json({ members: await members.listMembers(db, accessOf(req).tenantId) });
  };

  const changeRole: RequestHandler<{ orgId: string; userId: string }> = async (req, res) => {
    const { role } = parse(roleBody, req.body);
    res.json(await members.changeRole(db, auditContextOf(req), accessOf(req), req.params.userId, role));
  };

  const remove: RequestHandler<{ orgId: string; userId: string }> = async (req, res) => {
    await members.removeMember(db, auditContextOf(req), accessOf(req), memberOf(req).userId, req.params.userId);
    res.status(204).end();
  };

  return { list, changeRole, remove };
}
