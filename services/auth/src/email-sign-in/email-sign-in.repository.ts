import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';

export interface EmailSignInRow {
  id: string;
  email: string;
  email_hash: string;
  code_hash: string;
  expires_at: Date;
  used_at: Date | null;
}

const COLUMNS = ['id', 'email', 'email_hash', 'code_hash', 'expires_at', 'used_at'] as const;

const signIns = (db: Knex, tenant: Tenant) => tenantTable(db, tenant, 'email_sign_ins');

/** Stores a new link and code (their hashes); earlier unused ones of the e-mail stop working. */
export async function insertEmailSignIn(
  db: Knex,
  tenant: Tenant,
  input: { email: string; emailHash: string; linkHash: string; codeHash: string; expiresAt: Date },
): Promise<void> {
  await signIns(db, tenant)
    .where({ email_hash: input.emailHash })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() });
  await signIns(db, tenant).insert({
    id: randomUUID(),
    ...tenantColumns(tenant),
    email: input.email,
    email_hash: input.emailHash,
    link_hash: input.linkHash,
    code_hash: input.codeHash,
    expires_at: input.expiresAt,
  });
}

/** The sign-in whose link has this hash, locked for the rest of the transaction. */
export async function findByLink(
  trx: Knex.Transaction,
  tenant: Tenant,
  linkHash: string,
): Promise<EmailSignInRow | null> {
  const row = await signIns(trx, tenant)
    .where({ link_hash: linkHash })
    .forUpdate()
    .first(...COLUMNS);
  return (row as EmailSignInRow | undefined) ?? null;
}

/** The e-mail's newest unused sign-in (only it can be valid), locked for the rest of the transaction. */
export async function findLatestUnused(
  trx: Knex.Transaction,
  tenant: Tenant,
  emailHash: string,
): Promise<EmailSignInRow | null> {
  const row = await signIns(trx, tenant)
    .where({ email_hash: emailHash })
    .whereNull('used_at')
    .orderBy('created_at', 'desc')
    .forUpdate()
    .first(...COLUMNS);
  return (row as EmailSignInRow | undefined) ?? null;
}

export async function markUsed(trx: Knex.Transaction, tenant: Tenant, id: string): Promise<void> {
  await signIns(trx, tenant).where({ id }).update({ used_at: trx.fn.now() });
}
