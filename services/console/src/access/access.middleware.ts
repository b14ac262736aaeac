import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { createPublicKey } from 'node:crypto';
import { bearerTokenOf, errors, verifyAccessToken } from '@platform/tenancy';
import type { ReservedProject } from '../accounts/reserved-project';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { findMembership } from '../members/members.service';
import type { Member, OrgAccess } from './access.model';
import { allows, type Permission } from './roles';
import './access.model';

/**
 * Accepts only access tokens of the console's reserved project: an access token of any other
 * project (signed with the same platform key) is refused as if it were invalid.
 */
export function requireMember(publicKeyPem: string, reserved: ReservedProject): RequestHandler {
  const key = createPublicKey(publicKeyPem);
  return async (req, _res, next) => {
    const token = bearerTokenOf(req.get('authorization'));
    const claims = token ? verifyAccessToken(token, key) : null;
    if (!claims) throw errors.invalidSession('Missing, invalid or expired access token');
    const { tenantId, projectId } = await reserved.ensure();
    if (claims.tenantId !== tenantId || claims.projectId !== projectId)
      throw errors.invalidSession('Not a console access token');
    req.consoleMember = { userId: claims.userId, email: claims.email.toLowerCase() };
    next();
  };
}

export function memberOf(req: Request): Member {
  if (!req.consoleMember) throw new Error('requireMember must run first');
  return req.consoleMember;
}

export function accessOf(req: Request): OrgAccess {
  if (!req.consoleAccess) throw new Error('orgAccess must run first');
  return req.consoleAccess;
}

/** Who is acting and from where, for the audit log. */
export function auditContextOf(req: Request): AuditContext {
  const member = req.consoleMember;
  return {
    actorId: member?.userId ?? null,
    actorEmail: member?.email ?? null,
    clientAddress: req.ip ?? null,
    userAgent: req.get('user-agent')?.slice(0, 512) ?? null,
    source: 'console',
  };
}

/**
 * The organisation of `:orgId` and the member's role in it. Not a member: 404, as if the
 * organisation did not exist. A role too weak for `permission`: 403, recorded as denied.
 */
export function orgAccess(db: Knex, permission: Permission): RequestHandler<{ orgId: string }> {
  return async (req, _res, next) => {
    const member = memberOf(req);
    const tenantId = req.params.orgId;
    const row = /^[0-9a-f-]{36}$/i.test(tenantId) ? await findMembership(db, tenantId, member.userId) : undefined;
    if (!row) throw errors.notFound('Organisation');
    if (!allows(row.role, permission)) {
      await record(db, auditContextOf(req), {
        tenantId,
        projectId: (req.params as { projectId?: string }).projectId ?? null,
        action: permission,
        target: req.originalUrl.split('?')[0],
        outcome: 'denied',
        details: { role: row.role },
      });
      throw errors.forbidden(`The ${row.role} role may not do this`);
    }
    req.consoleAccess = { tenantId, role: row.role };
    next();
  };
}
