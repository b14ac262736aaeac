import type { Knex } from 'knex';
import { tenantColumns, sharedTable, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

const TABLE = 'mail_idempotency_keys';

/**
 * Claims `key` for this request inside the caller's transaction: true when this request owns it
 * (new, or the previous use has expired). A concurrent claim of the same key waits on the
 * unique key until the owner's transaction ends, then sees its outcome.
 */
export async function claimKey(
  trx: Knex.Transaction,
  tenant: Tenant,
  key: string,
  requestHash: string,
  expiresAt: Date,
): Promise<boolean> {
  const rows = await tenantTable(trx, tenant, TABLE)
    .insert({
      ...tenantColumns(tenant),
      key,
      request_hash: requestHash,
      response: '{}',
      expires_at: expiresAt,
    })
    .onConflict(['project_id', 'key'])
    .merge(['request_hash', 'response', 'expires_at', 'created_at'])
    .where(`${TABLE}.expires_at`, '<=', trx.fn.now())
    .returning('key');
  return rows.length > 0;
}

export async function findKey(
  db: Knex,
  tenant: Tenant,
  key: string,
): Promise<{ requestHash: string; response: unknown } | undefined> {
  return tenantTable(db, tenant, TABLE).where({ key }).first(['request_hash as requestHash', 'response']);
}

export async function storeResponse(db: Knex, tenant: Tenant, key: string, response: unknown): Promise<void> {
  await tenantTable(db, tenant, TABLE)
    .where({ key })
    .update({ response: JSON.stringify(response) });
}

/** Frees a key whose send failed, so that the client's retry sends. */
export async function releaseKey(db: Knex, tenant: Tenant, key: string): Promise<void> {
  await tenantTable(db, tenant, TABLE).where({ key }).delete();
}

/** Removes keys past their 24 hours, a batch at a time; returns how many. A sweep over all projects. */
export async function pruneExpiredKeys(db: Knex, limit: number): Promise<number> {
  return sharedTable(db, TABLE)
    .whereIn(
      ['project_id', 'key'],
      sharedTable(db, TABLE).where('expires_at', '<=', db.fn.now()).limit(limit).select('project_id', 'key'),
    )
    .delete();
}
