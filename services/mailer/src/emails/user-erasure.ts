import type { Knex } from 'knex';
import { tenantTable } from '@platform/db';
import type { ErasedUser } from '@platform/events';
import type { Tenant } from '@platform/tenancy';

/**
 * Deletes the project's e-mail logs to a deleted user's address (with the stored copies of what
 * was sent) and the kept answers of sends to it. Suppressions stay: they are the address's own
 * request not to be mailed (a bounce, complaint or unsubscribe), which an account deletion must not undo.
 */
export async function eraseUser(trx: Knex.Transaction, tenant: Tenant, user: ErasedUser): Promise<void> {
  if (!user.email) return;
  await tenantTable(trx, tenant, 'email_logs').whereRaw('lower(to_email) = lower(?)', [user.email]).delete();
  await tenantTable(trx, tenant, 'mail_idempotency_keys')
    .whereRaw(
      `exists (select 1 from jsonb_array_elements(case when jsonb_typeof(response->'recipients') = 'array'
         then response->'recipients' else '[]'::jsonb end) r where lower(r->>'to') = lower(?))`,
      [user.email],
    )
    .delete();
}
