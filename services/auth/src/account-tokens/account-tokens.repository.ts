import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '../context';

export type AccountTokenPurpose = 'verify_email' | 'reset_password';

export interface AccountTokenRecord {
  id: string;
  tenantId: string;
  projectId: string;
  userId: string;
  purpose: AccountTokenPurpose;
  expiresAt: Date;
  usedAt: Date | null;
}

const COLUMNS = ['id', 'tenant_id', 'project_id', 'user_id', 'purpose', 'expires_at', 'used_at'];

type Row = Record<string, unknown>;

function fromRow(row: Row): AccountTokenRecord {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    projectId: row.project_id as string,
    userId: row.user_id as string,
    purpose: row.purpose as AccountTokenPurpose,
    expiresAt: row.expires_at as Date,
    usedAt: (row.used_at as Date | null) ?? null,
  };
}

/**
 * Stores a new token (its hash) for the user; earlier unused tokens of the same purpose stop
 * working, so only the newest email's link is valid.
 */
export async function insertAccountToken(
  db: Knex,
  tenant: Tenant,
  input: { userId: string; purpose: AccountTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db('account_tokens')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId, user_id: input.userId, purpose: input.purpose })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() });
  await db('account_tokens').insert({
    id: randomUUID(),
    tenant_id: tenant.tenantId,
    project_id: tenant.projectId,
    user_id: input.userId,
    purpose: input.purpose,
    token_hash: input.tokenHash,
    expires_at: input.expiresAt,
  });
}

/** The token with this hash in the project; `forUpdate` locks it for the rest of the transaction. */
export async function findAccountToken(
  db: Knex,
  tenant: Tenant,
  purpose: AccountTokenPurpose,
  tokenHash: string,
  options: { forUpdate?: boolean } = {},
): Promise<AccountTokenRecord | null> {
  const query = db('account_tokens').where({
    tenant_id: tenant.tenantId,
    project_id: tenant.projectId,
    purpose,
    token_hash: tokenHash,
  });
  const row: Row | undefined = await (options.forUpdate ? query.forUpdate() : query).first(COLUMNS);
  return row ? fromRow(row) : null;
}

/**
 * Verify-email may arrive without keys (the link in the email is all the user has), so the
 * token itself names its tenant: a 256-bit random value cannot be guessed into another project.
 */
export async function findTokenOwner(
  db: Knex,
  purpose: AccountTokenPurpose,
  tokenHash: string,
): Promise<Tenant | null> {
  const row: { tenant_id: string; project_id: string } | undefined = await db('account_tokens')
    .where({ purpose, token_hash: tokenHash })
    .first('tenant_id', 'project_id');
  return row ? { tenantId: row.tenant_id, projectId: row.project_id } : null;
}

export async function markAccountTokenUsed(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await db('account_tokens')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId, id })
    .update({ used_at: db.fn.now() });
}
