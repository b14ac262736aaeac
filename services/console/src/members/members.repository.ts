import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';
import type { Role } from '../access/roles';

export interface MemberRow {
  tenant_id: string;
  user_id: string;
  email: string;
  role: Role;
  created_at: Date;
}

const COLUMNS = ['tenant_id', 'user_id', 'email', 'role', 'created_at'] as const;

// Members are owned by the organisation alone (no project): every query names the tenant.
const members = (db: Knex, tenantId: string) => sharedTable<MemberRow>(db, 'members').where({ tenant_id: tenantId });

export async function findMember(db: Knex, tenantId: string, userId: string): Promise<MemberRow | undefined> {
  return members(db, tenantId)
    .where({ user_id: userId })
    .first(...COLUMNS);
}

export async function listMembers(db: Knex, tenantId: string): Promise<MemberRow[]> {
  return members(db, tenantId)
    .orderBy([{ column: 'created_at' }, { column: 'user_id' }])
    .select(...COLUMNS);
}

/** The organisations a user belongs to (the user's own rows across tenants). */
export async function membershipsOf(db: Knex, userId: string): Promise<MemberRow[]> {
  return sharedTable<MemberRow>(db, 'members')
    .where({ user_id: userId })
    .orderBy('created_at')
    .select(...COLUMNS);
}

export async function insertMember(
  db: Knex,
  tenantId: string,
  member: { userId: string; email: string; role: Role },
): Promise<MemberRow> {
  const [row] = await sharedTable(db, 'members')
    .insert({ tenant_id: tenantId, user_id: member.userId, email: member.email, role: member.role })
    .onConflict(['tenant_id', 'user_id'])
    .merge({ role: member.role, email: member.email })
    .returning<MemberRow[]>([...COLUMNS]);
  return row;
}

export async function updateRole(
  db: Knex,
  tenantId: string,
  userId: string,
  role: Role,
): Promise<MemberRow | undefined> {
  const [row] = await members(db, tenantId)
    .where({ user_id: userId })
    .update({ role })
    .returning<MemberRow[]>([...COLUMNS]);
  return row;
}

export async function deleteMember(db: Knex, tenantId: string, userId: string): Promise<void> {
  await members(db, tenantId).where({ user_id: userId }).delete();
}

/** Every membership of the organisation (it is deleted). */
export async function deleteMembersOf(db: Knex, tenantId: string): Promise<void> {
  await members(db, tenantId).delete();
}

/** Owners of the organisation, locked: two owners leaving at once cannot leave none. */
export async function lockOwners(db: Knex, tenantId: string): Promise<string[]> {
  const rows = await members(db, tenantId).where({ role: 'owner' }).forUpdate().select('user_id');
  return rows.map((r) => r.user_id);
}
