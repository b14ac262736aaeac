import type { Knex } from 'knex';
import { AUTH_EVENTS, idempotent, type EventEnvelope, type UserDeletedData } from '@platform/events';
import type { ServiceDeps, StopFunction } from '@platform/runtime';
import { tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

export const USER_ERASURE_QUEUE = 'notifications.user-erasure';
export const USER_ERASURE_CONSUMER = 'user-erasure';

/** Deletes what this service holds of one user: their notifications, read receipts and stream events. */
export async function eraseUser(trx: Knex.Transaction, tenant: Tenant, userId: string): Promise<void> {
  await tenantTable(trx, tenant, 'notification_events').where({ user_id: userId }).delete();
  // Receipts carry no owner of their own: the project is their notification's.
  await trx.raw(
    `delete from notification_receipts r using notifications n
      where r.notification_id = n.id and n.tenant_id = ? and n.project_id = ? and r.user_id = ?`,
    [tenant.tenantId, tenant.projectId, userId],
  );
  await tenantTable(trx, tenant, 'notifications').where({ user_id: userId }).delete();
}

/** The consumer of `auth.user.deleted` (a deleted user, or an anonymous one pruned), once per event. */
export function userErasureHandler(deps: ServiceDeps) {
  return idempotent(deps.db, USER_ERASURE_CONSUMER, (trx, event: EventEnvelope) => {
    const data = event.data as UserDeletedData;
    return eraseUser(trx, { tenantId: event.tenantId, projectId: event.projectId }, data.userId);
  });
}

export async function startUserErasure(deps: ServiceDeps): Promise<StopFunction> {
  await deps.bus.subscribe({
    queue: USER_ERASURE_QUEUE,
    topics: [AUTH_EVENTS.userDeleted],
    handler: userErasureHandler(deps),
    prefetch: 10,
    maxAttempts: 5,
    retryDelaysMs: [2_000, 10_000, 60_000, 300_000],
  });
  // The subscription ends with the bus.
  return async () => undefined;
}
