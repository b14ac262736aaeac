import type { Knex } from 'knex';
import type { Tenant } from '@platform/tenancy';

export interface SeedShape {
  /** Notifications to insert into the project. */
  count: number;
  /** Users the personal notifications are spread over (`user-0` .. `user-<users-1>`). */
  users: number;
  /** One row in `broadcastEvery` is a broadcast. */
  broadcastEvery: number;
  /** Users `user-0` .. `user-<readers-1>` have each read about half of the broadcasts. */
  readers: number;
}

/**
 * Bulk-inserts notifications in one statement (generate_series), newest first, spread over
 * the last 29 days and expiring a year after: a third read, one in fifty soft-deleted, the
 * five types in turn, plus broadcast receipts. The index test and the benchmark need
 * realistic volumes fast.
 */
export async function seedNotifications(db: Knex, tenant: Tenant, shape: SeedShape): Promise<void> {
  const spacingSeconds = (29 * 24 * 3600) / shape.count;
  await db.raw(
    `insert into notifications (tenant_id, project_id, user_id, title, message, type, data, read_at, created_at, expires_at, deleted_at)
     select :tenantId, :projectId,
            case when g % :broadcastEvery = 0 then null else 'user-' || (g % :users) end,
            'Notification ' || g, 'Message number ' || g || ' of the seed',
            (array['info', 'success', 'warning', 'error', 'custom'])[1 + g % 5],
            jsonb_build_object('seq', g),
            case when g % 3 = 0 then now() - make_interval(secs => g * :spacing::float8 / 2) end,
            now() - make_interval(secs => g * :spacing::float8),
            now() + interval '365 days' - make_interval(secs => g * :spacing::float8),
            case when g % 50 = 1 then now() end
       from generate_series(1, :count) as g`,
    {
      ...tenant,
      count: shape.count,
      users: shape.users,
      broadcastEvery: shape.broadcastEvery,
      spacing: spacingSeconds,
    },
  );
  await db.raw(
    `insert into notification_receipts (notification_id, user_id, read_at)
     select n.id, 'user-' || u, now()
       from notifications n cross join generate_series(0, :readers - 1) as u
      where n.tenant_id = :tenantId and n.project_id = :projectId and n.user_id is null
        and ((n.data ->> 'seq')::int / :broadcastEvery + u) % 2 = 0`,
    { ...tenant, readers: shape.readers, broadcastEvery: shape.broadcastEvery },
  );
}
