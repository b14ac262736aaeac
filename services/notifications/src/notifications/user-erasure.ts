import type { Knex } from 'knex';
import type { ErasedUser } from '@platform/events';
import { tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

/** Deletes what this service holds of one user: their notifications, read receipts and stream events. */
export async function eraseUser(trx: Knex.Transaction, tenant: Tenant, user: ErasedUser): Promise<void> {
  await tenantTable(trx, tenant, 'notification_events').where({ user_id: user.userId }).delete();
  // Receipts carry no owner of their own: the project is their notification's.
  await trx.raw(
    `delete from notification_receipts r using notifications n
      where r.notification_id = n.id and n.tenant_id = ? and n.project_id = ? and r.user_id = ?`,
    [tenant.tenantId, tenant.projectId, user.userId],
  );
  await tenantTable(trx, tenant, 'notifications').where({ user_id: user.userId }).delete();
}
