import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantOfRow, sharedTable, tenantTable, type Tenant } from '@platform/db';

export type AccountTokenPurpose = 'verify_email' | 'reset_password';

export interface AccountTokenRow {
  id: string;
  user_id: string;
  purpose: AccountTokenPurpose;
  expires_at: Date;
  used_at: Date | null;
}

/** The stored table: the row read back, plus the owner and the token's hash. */
interface AccountTokenTable extends AccountTokenRow {
  tenant_id: string;
  project_id: string;
  token_hash: string;
}

const COLUMNS = [
  'id',
  'user_id',
  'purpose',
  'expires_at',
  'used_at',
] as const satisfies readonly (keyof AccountTokenRow)[];

const accountTokens = (db: Knex, tenant: Tenant) => tenantTable<AccountTokenTable>(db, tenant, 'account_tokens');

/**
 * Stores a new token (its hash) for the user; earlier unused tokens of the same purpose stop
 * working, so only the newest email's link is valid.
 */
export async function insertAccountToken(
  db: Knex,
  tenant: Tenant,
  input: { userId: string; purpose: AccountTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await accountTokens(db, tenant)
    .where({ user_id: input.userId, purpose: input.purpose })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() });
  await accountTokens(db, tenant).insert({
    id: randomUUID(),
    ...tenantColumns(tenant),
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
): Promise<AccountTokenRow | null> {
  const query = accountTokens(db, tenant).where({ purpose, token_hash: tokenHash });
  const row = await (options.forUpdate ? query.forUpdate() : query).first(...COLUMNS);
  return (row as AccountTokenRow | undefined) ?? null;
}

/**
 * Verify-email may arrive without keys (the link in the email is all the user has), so the
 * token itself names its tenant: a 256-bit random value cannot be guessed into another project.
 * Deliberately unscoped: this is the lookup that finds the tenant.
 */
export async function findTokenOwner(
  db: Knex,
  purpose: AccountTokenPurpose,
  tokenHash: string,
): Promise<Tenant | null> {
  const row: { tenant_id: string; project_id: string } | undefined = await sharedTable(db, 'account_tokens')
    .where({ purpose, token_hash: tokenHash })
    .first('tenant_id', 'project_id');
  return row ? tenantOfRow(row) : null;
}

export async function markAccountTokenUsed(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await accountTokens(db, tenant).where({ id }).update({ used_at: db.fn.now() });
}
