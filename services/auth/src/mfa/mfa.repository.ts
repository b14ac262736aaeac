import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';
import { isUuid } from '@platform/tenancy';
import { FACTOR_COLUMNS, type ChallengeRow, type FactorRow } from './mfa.model';

const factors = (db: Knex, tenant: Tenant) => tenantTable<FactorRow>(db, tenant, 'mfa_factors');
const codes = (db: Knex, tenant: Tenant) => tenantTable(db, tenant, 'mfa_recovery_codes');
const challenges = (db: Knex, tenant: Tenant) => tenantTable<ChallengeRow>(db, tenant, 'mfa_challenges');

export async function listFactors(db: Knex, tenant: Tenant, userId: string): Promise<FactorRow[]> {
  return (await factors(db, tenant)
    .where({ user_id: userId })
    .orderBy('created_at')
    .select(...FACTOR_COLUMNS)) as FactorRow[];
}

export async function findFactor(
  db: Knex,
  tenant: Tenant,
  userId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<FactorRow | null> {
  if (!isUuid(id)) return null;
  const query = factors(db, tenant).where({ id, user_id: userId });
  const row = await (options.forUpdate ? query.forUpdate() : query).first(...FACTOR_COLUMNS);
  return (row as FactorRow | undefined) ?? null;
}

/** The user's active factor, locked so that two codes checked at once cannot both pass. */
export async function findActiveFactor(
  db: Knex,
  tenant: Tenant,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<FactorRow | null> {
  const query = factors(db, tenant).where({ user_id: userId, status: 'active' });
  const row = await (options.forUpdate ? query.forUpdate() : query).first(...FACTOR_COLUMNS);
  return (row as FactorRow | undefined) ?? null;
}

/** A new pending factor; earlier pending ones of the user (abandoned enrolments) go. */
export async function insertPendingFactor(
  db: Knex,
  tenant: Tenant,
  userId: string,
  secretSealed: string,
): Promise<FactorRow> {
  await factors(db, tenant).where({ user_id: userId, status: 'pending' }).delete();
  const [row] = await factors(db, tenant)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      user_id: userId,
      type: 'totp',
      status: 'pending',
      secret_sealed: secretSealed,
    })
    .returning([...FACTOR_COLUMNS]);
  return row as FactorRow;
}

export async function activateFactor(db: Knex, tenant: Tenant, id: string, step: number): Promise<FactorRow> {
  const [row] = await factors(db, tenant)
    .where({ id })
    .update({ status: 'active', activated_at: db.fn.now(), last_used_step: String(step) })
    .returning([...FACTOR_COLUMNS]);
  return row as FactorRow;
}

export async function markStepUsed(db: Knex, tenant: Tenant, id: string, step: number): Promise<void> {
  await factors(db, tenant)
    .where({ id })
    .update({ last_used_step: String(step) });
}

export async function deleteFactor(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await factors(db, tenant).where({ id }).delete();
}

/** Replaces the user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(db: Knex, tenant: Tenant, userId: string, hashes: string[]): Promise<void> {
  await codes(db, tenant).where({ user_id: userId }).delete();
  if (!hashes.length) return;
  await codes(db, tenant).insert(
    hashes.map((hash) => ({ id: randomUUID(), ...tenantColumns(tenant), user_id: userId, code_hash: hash })),
  );
}

/** Uses up the unused code with this hash; false when there is none. */
export async function useRecoveryCode(db: Knex, tenant: Tenant, userId: string, hash: string): Promise<boolean> {
  const used = await codes(db, tenant)
    .where({ user_id: userId, code_hash: hash })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() });
  return used > 0;
}

export async function countUnusedRecoveryCodes(db: Knex, tenant: Tenant, userId: string): Promise<number> {
  const row = await codes(db, tenant).where({ user_id: userId }).whereNull('used_at').count<{ n: string }[]>('* as n');
  return Number(row[0]?.n ?? 0);
}

export async function insertChallenge(db: Knex, tenant: Tenant, userId: string, expiresAt: Date): Promise<string> {
  const id = randomUUID();
  await challenges(db, tenant).insert({ id, ...tenantColumns(tenant), user_id: userId, expires_at: expiresAt });
  return id;
}

export async function findChallenge(db: Knex, tenant: Tenant, id: string): Promise<ChallengeRow | null> {
  if (!isUuid(id)) return null;
  const row = await challenges(db, tenant).where({ id }).forUpdate().first('id', 'user_id', 'expires_at', 'used_at');
  return (row as ChallengeRow | undefined) ?? null;
}

export async function markChallengeUsed(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await challenges(db, tenant).where({ id }).update({ used_at: db.fn.now() });
}
