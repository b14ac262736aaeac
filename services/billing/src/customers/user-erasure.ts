import type { Knex } from 'knex';
import { tenantTable } from '@platform/db';
import type { ErasedUser } from '@platform/events';
import type { Tenant } from '@platform/tenancy';

/**
 * Anonymises what Billing holds of a deleted user: their Stripe customers stay the project's
 * (the Stripe account keeps the invoices the project must keep) but no longer name the user, and
 * the address is cleared from the subscriptions of those customers and of the user's address.
 */
export async function eraseUser(trx: Knex.Transaction, tenant: Tenant, user: ErasedUser): Promise<void> {
  const unlinked = (await tenantTable(trx, tenant, 'customers')
    .where({ user_id: user.userId })
    .update({ user_id: null })
    .returning(['environment', 'stripe_customer_id'])) as { environment: string; stripe_customer_id: string }[];
  const subscriptions = tenantTable(trx, tenant, 'subscriptions').whereNotNull('customer_email');
  subscriptions.where((q) => {
    for (const c of unlinked) q.orWhere({ environment: c.environment, stripe_customer_id: c.stripe_customer_id });
    // Stored lowercased.
    if (user.email) q.orWhere({ customer_email: user.email.toLowerCase() });
  });
  if (unlinked.length || user.email) await subscriptions.update({ customer_email: null });
}
