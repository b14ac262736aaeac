import type { Knex } from 'knex';
import { errors } from '@platform/tenancy';
import type { OrgAccess } from '../access/access.model';
import { mayManageRole, type Role } from '../access/roles';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { toOrganisationMember, type OrganisationMember } from './members.mapper';
import * as repo from './members.repository';

export async function listMembers(db: Knex, tenantId: string): Promise<OrganisationMember[]> {
  return (await repo.listMembers(db, tenantId)).map(toOrganisationMember);
}

const lastOwner = () => errors.conflict('The last owner cannot leave or step down; make another member owner first');

/** Admins manage every member but owners, and cannot make anyone owner; only owners touch owners. */
export async function changeRole(
  db: Knex,
  context: AuditContext,
  access: OrgAccess,
  userId: string,
  role: Role,
): Promise<OrganisationMember> {
  const changed = await db.transaction(async (trx) => {
    const owners = await repo.lockOwners(trx, access.tenantId);
    const target = await repo.findMember(trx, access.tenantId, userId);
    if (!target) throw errors.notFound('Member');
    if (!mayManageRole(access.role, target.role) || !mayManageRole(access.role, role))
      throw errors.forbidden('Only an owner may change an owner or make one');
    if (target.role === 'owner' && role !== 'owner' && owners.length === 1) throw lastOwner();
    return (await repo.updateRole(trx, access.tenantId, userId, role))!;
  });
  await record(db, context, {
    tenantId: access.tenantId,
    action: 'member.role.change',
    target: userId,
    outcome: 'success',
    details: { role },
  });
  return toOrganisationMember(changed);
}

/** Removes a member; a member may always leave, except the last owner. */
export async function removeMember(
  db: Knex,
  context: AuditContext,
  access: OrgAccess,
  actorId: string,
  userId: string,
): Promise<void> {
  await db.transaction(async (trx) => {
    const owners = await repo.lockOwners(trx, access.tenantId);
    const target = await repo.findMember(trx, access.tenantId, userId);
    if (!target) throw errors.notFound('Member');
    const leaving = userId === actorId;
    if (!leaving && (access.role === 'developer' || access.role === 'viewer'))
      throw errors.forbidden(`The ${access.role} role may not do this`);
    if (!leaving && !mayManageRole(access.role, target.role))
      throw errors.forbidden('Only an owner may remove an owner');
    if (target.role === 'owner' && owners.length === 1) throw lastOwner();
    await repo.deleteMember(trx, access.tenantId, userId);
  });
  await record(db, context, {
    tenantId: access.tenantId,
    action: userId === actorId ? 'member.leave' : 'member.remove',
    target: userId,
    outcome: 'success',
  });
}

/** The member's row in an organisation (others' features read memberships through here). */
export const findMembership = repo.findMember;
export const membershipsOf = repo.membershipsOf;

/** Adds (or, for an existing member, re-roles) a member. */
export const addMember = repo.insertMember;

/** Removes every member of an organisation that is being deleted. */
export async function removeAllMembers(db: Knex, tenantId: string): Promise<void> {
  await repo.deleteMembersOf(db, tenantId);
}
