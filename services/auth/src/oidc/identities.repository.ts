import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';

export interface IdentityRow {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  email_verified: boolean;
  created_at: Date;
  last_sign_in_at: Date | null;
}

const COLUMNS = [
  'id',
  'user_id',
  'provider',
  'subject',
  'email',
  'email_verified',
  'created_at',
  'last_sign_in_at',
] as const satisfies readonly (keyof IdentityRow)[];

const identities = (db: Knex, tenant: Tenant) => tenantTable(db, tenant, 'user_identities');

export async function findIdentity(
  db: Knex,
  tenant: Tenant,
  provider: string,
  subject: string,
): Promise<IdentityRow | null> {
  const row = await identities(db, tenant)
    .where({ provider, subject })
    .first(...COLUMNS);
  return (row as IdentityRow | undefined) ?? null;
}

/** Null when the provider account is already someone's (a concurrent sign-in linked it). */
export async function insertIdentity(
  db: Knex,
  tenant: Tenant,
  input: { userId: string; provider: string; subject: string; email: string | null; emailVerified: boolean },
): Promise<IdentityRow | null> {
  const rows = await identities(db, tenant)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      user_id: input.userId,
      provider: input.provider,
      subject: input.subject,
      email: input.email,
      email_verified: input.emailVerified,
      last_sign_in_at: db.fn.now(),
    })
    .onConflict(['tenant_id', 'project_id', 'provider', 'subject'])
    .ignore()
    .returning<IdentityRow[]>([...COLUMNS]);
  return rows[0] ?? null;
}

export async function touchIdentity(
  db: Knex,
  tenant: Tenant,
  id: string,
  claims: { email: string | null; emailVerified: boolean },
): Promise<void> {
  await identities(db, tenant)
    .where({ id })
    .update({ email: claims.email, email_verified: claims.emailVerified, last_sign_in_at: db.fn.now() });
}

export async function listIdentities(db: Knex, tenant: Tenant, userId: string): Promise<IdentityRow[]> {
  return (await identities(db, tenant)
    .where({ user_id: userId })
    .orderBy('created_at')
    .select(...COLUMNS)) as IdentityRow[];
}

export async function deleteIdentity(db: Knex, tenant: Tenant, userId: string, id: string): Promise<boolean> {
  return (await identities(db, tenant).where({ user_id: userId, id }).delete()) > 0;
}

/** Passkeys count as a way to sign in when deciding whether an identity may go. */
export async function countPasskeys(db: Knex, tenant: Tenant, userId: string): Promise<number> {
  const row = await tenantTable(db, tenant, 'passkeys')
    .where({ user_id: userId })
    .count<{ count: string }[]>('* as count');
  return Number(row[0]?.count ?? 0);
}
