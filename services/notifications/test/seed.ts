import type { Knex } from 'knex';
import type { Tenant } from '../src/notifications/notifications.repository';

export interface SeedShape {
  /** Notifications to insert into the project. */
  count: number;
  /** Users the personal notifications are spread over (`user-0` .. `user-<users-1>`). */
  users: number;
  /** One row in `broadcastEvery` is a broadcast. */
  broadcastEvery: number;
}

/**
 * Bulk-inserts notifications in one statement (generate_series), newest first one minute
 * apart: a third read, one in fifty soft-deleted, the five types in turn, and receipts
 * by which each user has read about half of the broadcasts. Used by the index
 * test and the benchmark, which need realistic volumes fast.
 */
export async function seedNotifications(db: Knex, tenant: Tenant, shape: SeedShape): Promise<void> {
  await db.raw(
    `insert into notifications (tenant_id, project_id, user_id, title, message, type, data, read_at, created_at, expires_at, deleted_at)
     select :tenantId, :projectId,
            case when g % :broadcastEvery = 0 then null else 'user-' || (g % :users) end,
            'Notification ' || g, 'Message number ' || g || ' of the seed',
            (array['info', 'success', 'warning', 'error', 'custom'])[1 + g % 5],
            jsonb_build_object('seq', g),
            case when g % 3 = 0 then now() - make_interval(secs => g * 30) end,
            now() - make_interval(secs => g * 60),
            now() + interval '30 days' - make_interval(secs => g * 60),
            case when g % 50 = 1 then now() end
       from generate_series(1, :count) as g`,
    { ...tenant, ...shape },
  );
  // Each user has read about half of the broadcasts.
  await db.raw(
    `insert into notification_receipts (notification_id, user_id, read_at)
     select n.id, 'user-' || u, now()
       from notifications n cross join generate_series(0, :users - 1) as u
      where n.tenant_id = :tenantId and n.project_id = :projectId and n.user_id is null
        and ((n.data ->> 'seq')::int / :broadcastEvery + u) % 2 = 0`,
    { ...tenant, users: shape.users, broadcastEvery: shape.broadcastEvery },
  );
}
