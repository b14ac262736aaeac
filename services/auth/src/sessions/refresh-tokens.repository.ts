import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '../context';

export interface RefreshTokenRecord {
  id: string;
  userId: string;
  familyId: string;
  tokenVersion: number;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

const COLUMNS = ['id', 'user_id', 'family_id', 'token_version', 'expires_at', 'rotated_at', 'revoked_at'];

function fromRow(row: Record<string, unknown>): RefreshTokenRecord {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    familyId: row.family_id as string,
    tokenVersion: row.token_version as number,
    expiresAt: row.expires_at as Date,
    rotatedAt: (row.rotated_at as Date | null) ?? null,
    revokedAt: (row.revoked_at as Date | null) ?? null,
  };
}

const owned = (db: Knex, tenant: Tenant) =>
  db('refresh_tokens').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

export async function insertRefreshToken(
  db: Knex,
  tenant: Tenant,
  input: { userId: string; familyId: string; tokenVersion: number; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db('refresh_tokens').insert({
    id: randomUUID(),
    tenant_id: tenant.tenantId,
    project_id: tenant.projectId,
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
): Promise<RefreshTokenRecord | null> {
  const query = owned(db, tenant).where({ token_hash: tokenHash });
  const row: Record<string, unknown> | undefined = await (options.forUpdate ? query.forUpdate() : query).first(COLUMNS);
  return row ? fromRow(row) : null;
}

export async function markRotated(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await owned(db, tenant).where({ id }).update({ rotated_at: db.fn.now() });
}

export async function revokeFamily(db: Knex, tenant: Tenant, familyId: string): Promise<void> {
  await owned(db, tenant).where({ family_id: familyId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

export async function revokeAllOfUser(db: Knex, tenant: Tenant, userId: string): Promise<void> {
  await owned(db, tenant).where({ user_id: userId }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}
