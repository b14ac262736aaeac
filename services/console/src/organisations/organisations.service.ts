import type { Knex } from 'knex';
import { createTenant, deleteTenant, findTenant, findTenants, renameTenant } from '@platform/directory';
import { errors } from '@platform/tenancy';
import type { Member } from '../access/access.model';
import type { Role } from '../access/roles';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { requestErasure } from '../erasure/erasure.service';
import { revokeAllInvitations } from '../invitations/invitations.service';
import { addMember, membershipsOf, removeAllMembers } from '../members/members.service';
import { toOrganisation, type Organisation } from './organisations.mapper';

export interface ConsoleDbs {
  db: Knex;
  platformDb: Knex;
}

/** A new organisation (a platform tenant) whose first owner is its creator. */
export async function createOrganisation(
  { db, platformDb }: ConsoleDbs,
  context: AuditContext,
  member: Member,
  name: string,
): Promise<Organisation> {
  const tenant = await createTenant(platformDb, name);
  await addMember(db, tenant.id, { userId: member.userId, email: member.email, role: 'owner' });
  await record(db, context, {
    tenantId: tenant.id,
    action: 'organisation.create',
    target: tenant.id,
    outcome: 'success',
    details: { name },
  });
  return toOrganisation(tenant, 'owner');
}

export async function listMyOrganisations({ db, platformDb }: ConsoleDbs, member: Member): Promise<Organisation[]> {
  const memberships = await membershipsOf(db, member.userId);
  const roles = new Map(memberships.map((m) => [m.tenant_id, m.role]));
  const tenants = await findTenants(
    platformDb,
    memberships.map((m) => m.tenant_id),
  );
  return tenants.map((t) => toOrganisation(t, roles.get(t.id)));
}

export async function getOrganisation({ platformDb }: ConsoleDbs, tenantId: string, role: Role): Promise<Organisation> {
  const tenant = await findTenant(platformDb, tenantId);
  if (!tenant) throw errors.notFound('Organisation');
  return toOrganisation(tenant, role);
}

export async function renameOrganisation(
  { db, platformDb }: ConsoleDbs,
  context: AuditContext,
  tenantId: string,
  role: Role,
  name: string,
): Promise<Organisation> {
  const tenant = await renameTenant(platformDb, tenantId, name);
  await record(db, context, {
    tenantId,
    action: 'organisation.rename',
    target: tenantId,
    outcome: 'success',
    details: { name },
  });
  return toOrganisation(tenant, role);
}

/**
 * Deletes the organisation: every key of every project is revoked at once (one transaction of
 * the platform directory), then each project is erased as a deleted project is (an erasure
 * request each, recorded as `project.delete`), and the organisation leaves every member's list.
 */
export async function deleteOrganisation(
  { db, platformDb, relay }: ConsoleDbs & { relay: { kick(): void } },
  context: AuditContext,
  tenantId: string,
): Promise<void> {
  const projectIds = await deleteTenant(platformDb, tenantId);
  for (const projectId of projectIds) {
    await requestErasure(db, relay, tenantId, projectId);
    await record(db, context, { tenantId, projectId, action: 'project.delete', target: projectId, outcome: 'success' });
  }
  await revokeAllInvitations(db, tenantId);
  await removeAllMembers(db, tenantId);
  await record(db, context, {
    tenantId,
    action: 'organisation.delete',
    target: tenantId,
    outcome: 'success',
    details: { projects: projectIds },
  });
}
