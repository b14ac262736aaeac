import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

/**
 * What each provider's webhooks already carried: Mailgun tokens and SendGrid event ids, each
 * remembered until `expiresAt`, so that a second delivery of it (a replay, on any replica or
 * after a restart) is recognised.
 */
const TABLE = 'mail_webhook_receipts';

/**
 * Records each of `ids` for the provider until `expiresAt` and returns the ones that were new.
 * An id already recorded and not yet expired is left out: the caller has seen it before. An
 * expired record is taken over, so pruning is only housekeeping. Under concurrency the primary
 * key lets exactly one caller record an id.
 */
export async function recordReceipts(
  db: Knex,
  tenant: Tenant,
  providerId: string,
  ids: string[],
  window: { expiresAt: Date; now: Date },
): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Set();
  const rows: { receipt_id: string }[] = await tenantTable(db, tenant, TABLE)
    .insert(
      unique.map((id) => ({
        ...tenantColumns(tenant),
        provider_id: providerId,
        receipt_id: id,
        expires_at: window.expiresAt,
      })),
    )
    .onConflict(['provider_id', 'receipt_id'])
    .merge({ expires_at: window.expiresAt })
    .where(`${TABLE}.expires_at`, '<', window.now)
    .returning('receipt_id');
  return new Set(rows.map((row) => row.receipt_id));
}

/** Deletes the provider's receipts whose window has passed; returns how many. */
export async function pruneExpiredReceipts(db: Knex, tenant: Tenant, providerId: string, now: Date): Promise<number> {
  return tenantTable(db, tenant, TABLE).where({ provider_id: providerId }).where('expires_at', '<', now).delete();
}
