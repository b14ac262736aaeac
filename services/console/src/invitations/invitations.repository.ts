import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';
import type { Role } from '../access/roles';

export interface InvitationRow {
  id: string;
  tenant_id: string;
  email: string;
  role: Role;
  invited_by: string;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'email',
  'role',
  'invited_by',
  'expires_at',
  'accepted_at',
  'revoked_at',
  'created_at',
] as const;

export async function insertInvitation(
  db: Knex,
  tenantId: string,
  input: { email: string; role: Role; tokenHash: string; invitedBy: string; expiresAt: Date },
): Promise<InvitationRow> {
  const [row] = await sharedTable(db, 'invitations')
    .insert({
      tenant_id: tenantId,
      email: input.email,
      role: input.role,
      token_hash: input.tokenHash,
      invited_by: input.invitedBy,
      expires_at: input.expiresAt,
    })
    .returning<InvitationRow[]>([...COLUMNS]);
  return row;
}

export async function listInvitations(db: Knex, tenantId: string): Promise<InvitationRow[]> {
  return sharedTable<InvitationRow>(db, 'invitations')
    .where({ tenant_id: tenantId })
    .orderBy('created_at', 'desc')
    .limit(500)
    .select(...COLUMNS);
}

export async function revokeInvitation(db: Knex, tenantId: string, id: string): Promise<InvitationRow | undefined> {
  const [row] = await sharedTable(db, 'invitations')
    .where({ tenant_id: tenantId, id })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() })
    .returning<InvitationRow[]>([...COLUMNS]);
  return row;
}

/** Every open invitation of the organisation, revoked (it is deleted). */
export async function revokeOpenInvitations(db: Knex, tenantId: string): Promise<void> {
  await sharedTable(db, 'invitations')
    .where({ tenant_id: tenantId })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
}

/** The invitation of a token (by its hash), locked for its single use. */
export async function lockByTokenHash(db: Knex, tokenHash: string): Promise<InvitationRow | undefined> {
  return sharedTable<InvitationRow & { token_hash: string }>(db, 'invitations')
    .where({ token_hash: tokenHash })
    .forUpdate()
    .first(...COLUMNS);
}

export async function markAccepted(db: Knex, id: string, userId: string): Promise<void> {
  await sharedTable(db, 'invitations').where({ id }).update({ accepted_at: db.fn.now(), accepted_by: userId });
}

/** Whether an address holds an invitation still open (invite-only sign-up). */
export async function hasOpenInvitation(db: Knex, email: string): Promise<boolean> {
  const row = await sharedTable(db, 'invitations')
    .where({ email })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .first('id');
  return row !== undefined;
}
