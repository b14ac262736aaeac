import type { KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import jwt from 'jsonwebtoken';
import { findTenant } from '@platform/directory';
import { errors } from '@platform/tenancy';
import type { Member, OrgAccess } from '../access/access.model';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { requireProject } from '../projects/projects.service';

/** The claims of docs/control-plane-contract.md. */
export const MEMBER_TOKEN_ISSUER = 'platform-console';
export const MEMBER_TOKEN_AUDIENCE = 'platform-services';

export interface MemberTokenDeps {
  db: Knex;
  platformDb: Knex;
  /** The platform's access-token private key (the one Authentication signs with). */
  signingKey: KeyObject | undefined;
  ttlSeconds: number;
}

/**
 * A short-lived token with which the member acts in one project of the six services, in place
 * of the project's secret key; the services enforce the role it carries.
 */
export async function issueMemberToken(
  deps: MemberTokenDeps,
  context: AuditContext,
  member: Member,
  access: OrgAccess,
  projectId: string,
): Promise<{ token: string; expiresAt: string; role: string; organisationId: string; projectId: string }> {
  if (!deps.signingKey) throw errors.unavailable('Member tokens need the platform access-token private key');
  await requireProject(deps.platformDb, access.tenantId, projectId);
  const tenant = await findTenant(deps.platformDb, access.tenantId);
  if (tenant?.suspendedAt) throw errors.forbidden('Organisation suspended');
  const now = Math.floor(Date.now() / 1000);
  const token = jwt.sign(
    {
      typ: 'member',
      email: member.email,
      tid: access.tenantId,
      pid: projectId,
      role: access.role,
      iat: now,
      exp: now + deps.ttlSeconds,
    },
    deps.signingKey,
    { algorithm: 'RS256', issuer: MEMBER_TOKEN_ISSUER, audience: MEMBER_TOKEN_AUDIENCE, subject: member.userId },
  );
  await record(deps.db, context, {
    tenantId: access.tenantId,
    projectId,
    action: 'member-token.issue',
    target: member.userId,
    outcome: 'success',
    details: { role: access.role },
  });
  return {
    token,
    expiresAt: new Date((now + deps.ttlSeconds) * 1000).toISOString(),
    role: access.role,
    organisationId: access.tenantId,
    projectId,
  };
}
