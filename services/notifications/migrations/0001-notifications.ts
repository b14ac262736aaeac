import type { Migration } from '@platform/db';

/**
 * Notifications and the per-user read receipts of broadcasts (RESOLUTIONS 8).
 *
 * Index plan, sized for a million rows in one project (see src/notifications/notifications.indexes.test.ts):
 * - notifications_feed_idx serves a user's own notifications (`user_id = $1`), newest first;
 *   it carries expires_at so that counts need not visit the table.
 * - notifications_broadcast_idx serves the broadcasts, newest first. It is separate because
 *   `user_id IS NULL` is not an equality, so the planner would not take the feed index's
 *   order after it; it is small, and carries read_at for the unread filters.
 * - notifications_project_idx serves the project-wide list (no userId).
 * - All three are partial on `deleted_at IS NULL`: soft-deleted rows never cost a list anything.
 * Mark-all-read finds its rows through the first two.
 * - The purge job finds old rows through notifications_expires_idx and the small
 *   notifications_deleted_idx.
 */
export const createNotifications: Migration = {
  name: '0001_notifications',
  async up(db) {
    await db.raw(`
      create table notifications (
        id uuid primary key default gen_random_uuid(),
        tenant_id uuid not null,
        project_id uuid not null,
        user_id varchar(255),
        title text not null,
        message text not null,
        type text not null default 'info' check (type in ('info', 'success', 'warning', 'error', 'custom')),
        data jsonb not null default '{}'::jsonb,
        read_at timestamptz,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        deleted_at timestamptz
      )`);
    await db.raw(`
      create index notifications_feed_idx on notifications
        (tenant_id, project_id, user_id, created_at desc, id desc) include (expires_at)
        where deleted_at is null`);
    await db.raw(`
      create index notifications_broadcast_idx on notifications
        (tenant_id, project_id, created_at desc, id desc) include (expires_at, read_at)
        where user_id is null and deleted_at is null`);
    await db.raw(`
      create index notifications_project_idx on notifications
        (tenant_id, project_id, created_at desc, id desc) include (expires_at)
        where deleted_at is null`);
    await db.raw('create index notifications_expires_idx on notifications (expires_at)');
    await db.raw('create index notifications_deleted_idx on notifications (deleted_at) where deleted_at is not null');

    // One row per (broadcast, user) who read it. Personal notifications keep read_at on the row.
    await db.raw(`
      create table notification_receipts (
        notification_id uuid not null references notifications (id) on delete cascade,
        user_id varchar(255) not null,
        read_at timestamptz not null default now(),
        primary key (notification_id, user_id)
      )`);
  },
  async down(db) {
    await db.schema.dropTable('notification_receipts');
    await db.schema.dropTable('notifications');
  },
};
