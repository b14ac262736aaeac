import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';

export interface RefreshTokenRow {
  id: string;
  user_id: string;
  family_id: string;
  token_version: number;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

/** The stored table: the row read back, plus the owner and the token's hash. */
interface RefreshTokenTable extends RefreshTokenRow {
  tenant_id: string;
  project_id: string;
  token_hash: string;
}

const COLUMNS = [
  'id',
  'user_id',
  'family_id',
  'token_version',
  'expires_at',
  'rotated_at',
  'revoked_at',
] as const satisfies readonly (keyof RefreshTokenRow)[];

const refreshTokens = (db: Knex, tenant: Tenant) => tenantTable<RefreshTokenTable>(db, tenant, 'refresh_tokens');

export async function insertRefreshToken(
  db: Knex,
  tenant: Tenant,
  input: { userId: string; familyId: string; tokenVersion: number; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await refreshTokens(db, tenant).insert({
    id: randomUUID(),
    ...tenantColumns(tenant),
    user_id: input.userId,
    family_id: input.familyId,
    token_version: input.tokenVersion,
    token_hash: input.tokenHash,
    expires_at: input.expiresAt,
  });
}

/** The token with this hash in the project; `forUpdate` serialises concurrent rotations of it. */
export async function findRefreshToken(
  db: Knex,
  tenant: Tenant,
  tokenHash: string,
  options: { forUpdate?: boolean } = {},
): Promise<RefreshTokenRow | null> {
  const query = refreshTokens(db, tenant).where({ token_hash: tokenHash });
  const row = await (options.forUpdate ? query.forUpdate() : query).first(...COLUMNS);
  return (row as RefreshTokenRow | undefined) ?? null;
}

export async function markRotated(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await refreshTokens(db, tenant).where({ id }).update({ rotated_at: db.fn.now() });
}

export async function revokeFamily(db: Knex, tenant: Tenant, familyId: string): Promise<void> {
  await refreshTokens(db, tenant)
    .where({ family_id: familyId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
}

export async function revokeAllOfUser(db: Knex, tenant: Tenant, userId: string): Promise<void> {
  await refreshTokens(db, tenant)
    .where({ user_id: userId })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
}

/** Moves a session's live tokens to the user's new version, so a version bump spares that session. */
export async function restampFamily(db: Knex, tenant: Tenant, familyId: string, tokenVersion: number): Promise<void> {
  await refreshTokens(db, tenant)
    .where({ family_id: familyId })
    .whereNull('revoked_at')
    .update({ token_version: tokenVersion });
}
