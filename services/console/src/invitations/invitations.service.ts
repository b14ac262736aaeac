import type { Knex } from 'knex';
import { findTenant } from '@platform/directory';
import { PLATFORM_EVENTS, withOutbox, type InvitationCreatedData } from '@platform/events';
import { AppError, errors, isUuid, randomToken, sha256Hex } from '@platform/tenancy';
import type { Member, OrgAccess } from '../access/access.model';
import { mayManageRole } from '../access/roles';
import type { ReservedProject } from '../accounts/reserved-project';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import type { ConsoleConfig } from '../config';
import { addMember, findMembership } from '../members/members.service';
import { toOrganisationMember, type OrganisationMember } from '../members/members.mapper';
import { toInvitation, type Invitation } from './invitations.mapper';
import * as repo from './invitations.repository';
import type { InvitationInput } from './invitations.schemas';

export interface InvitationDeps {
  db: Knex;
  platformDb: Knex;
  relay: { kick(): void };
  reserved: ReservedProject;
  config: ConsoleConfig;
}

/**
 * Invites an address. The token is random, shown to nobody but the mail (the link), stored as
 * its SHA-256 only; the Mailer sends it on the console's behalf from `platform.invitation.created`.
 */
export async function invite(
  deps: InvitationDeps,
  context: AuditContext,
  access: OrgAccess,
  member: Member,
  input: InvitationInput,
): Promise<Invitation> {
  if (!mayManageRole(access.role, input.role)) throw errors.forbidden('Only an owner may invite an owner');
  const tenant = await findTenant(deps.platformDb, access.tenantId);
  if (!tenant) throw errors.notFound('Organisation');
  const reserved = await deps.reserved.ensure();
  const token = randomToken('inv_', 32);
  const expiresAt = new Date(Date.now() + deps.config.invitationTtlMs);
  const row = await withOutbox(deps.db, deps.relay, async (trx, outbox) => {
    const inserted = await repo.insertInvitation(trx, access.tenantId, {
      email: input.email,
      role: input.role,
      tokenHash: sha256Hex(token),
      invitedBy: member.email,
      expiresAt,
    });
    const data: InvitationCreatedData = {
      invitationId: inserted.id,
      email: input.email,
      organisationName: tenant.name,
      role: input.role,
      invitedBy: member.email,
      link: `${deps.config.consoleUrl}/accept-invitation?token=${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
    };
    await outbox.write({
      type: PLATFORM_EVENTS.invitationCreated,
      tenantId: reserved.tenantId,
      projectId: reserved.projectId,
      data,
    });
    return inserted;
  });
  await record(deps.db, context, {
    tenantId: access.tenantId,
    action: 'invitation.create',
    target: row.id,
    outcome: 'success',
    details: { email: input.email, role: input.role },
  });
  return toInvitation(row);
}

export async function listInvitations(db: Knex, tenantId: string): Promise<Invitation[]> {
  const now = new Date();
  return (await repo.listInvitations(db, tenantId)).map((row) => toInvitation(row, now));
}

export async function revokeInvitation(db: Knex, context: AuditContext, tenantId: string, id: string): Promise<void> {
  const row = isUuid(id) ? await repo.revokeInvitation(db, tenantId, id) : undefined;
  if (!row) throw errors.notFound('Invitation');
  await record(db, context, { tenantId, action: 'invitation.revoke', target: id, outcome: 'success' });
}

const unusable = () => new AppError('GONE', 'This invitation is invalid, expired or already used');

/**
 * Accepts an invitation once, for the address it was sent to. Expired, used, revoked and
 * unknown tokens are one 410, so a token cannot be probed.
 */
export async function accept(
  db: Knex,
  context: AuditContext,
  member: Member,
  token: string,
): Promise<{ organisationId: string; member: OrganisationMember }> {
  const result = await db.transaction(async (trx) => {
    const row = await repo.lockByTokenHash(trx, sha256Hex(token));
    if (!row || row.accepted_at || row.revoked_at || row.expires_at.getTime() <= Date.now()) throw unusable();
    if (row.email !== member.email) throw errors.forbidden('This invitation was sent to another address');
    await repo.markAccepted(trx, row.id, member.userId);
    const existing = await findMembership(trx, row.tenant_id, member.userId);
    // An invitation never lowers a role the member already has.
    const joined = existing ?? (await addMember(trx, row.tenant_id, { ...member, role: row.role }));
    return { row, joined };
  });
  await record(db, context, {
    tenantId: result.row.tenant_id,
    action: 'invitation.accept',
    target: result.row.id,
    outcome: 'success',
    details: { role: result.joined.role },
  });
  return { organisationId: result.row.tenant_id, member: toOrganisationMember(result.joined) };
}

export const hasOpenInvitation = repo.hasOpenInvitation;

/** Revokes the open invitations of an organisation that is being deleted. */
export async function revokeAllInvitations(db: Knex, tenantId: string): Promise<void> {
  await repo.revokeOpenInvitations(db, tenantId);
}
