import type { Migration } from '@platform/db';

/**
 * The change log that the live streams read (issue 18).
 *
 * - notification_feeds holds one counter per project. Every change takes the next value while
 *   holding that row's lock until commit, so within a project the sequence numbers follow the
 *   commit order without gaps: a stream that has seen N has seen every change up to N.
 * - notification_events holds the changes themselves, the stream's `id:`; a reconnecting
 *   client replays from it (kept for the replay window, then purged).
 */
export const createNotificationEvents: Migration = {
  name: '0002_notification_events',
  async up(db) {
    await db.raw(`
      create table notification_feeds (
        tenant_id uuid not null,
        project_id uuid not null,
        last_seq bigint not null,
        primary key (tenant_id, project_id)
      )`);
    await db.raw(`
      create table notification_events (
        tenant_id uuid not null,
        project_id uuid not null,
        seq bigint not null,
        kind text not null check (kind in ('notification', 'read', 'read_all', 'deleted', 'expired')),
        user_id varchar(255),
        notification_id uuid,
        payload jsonb not null,
        created_at timestamptz not null default now(),
        primary key (tenant_id, project_id, seq)
      )`);
    await db.raw('create index notification_events_notification_idx on notification_events (notification_id)');
    await db.raw('create index notification_events_created_idx on notification_events (created_at)');
  },
  async down(db) {
    await db.schema.dropTable('notification_events');
    await db.schema.dropTable('notification_feeds');
  },
};
