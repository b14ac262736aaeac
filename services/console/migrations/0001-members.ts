import type { Migration } from '@platform/db';

/** Who belongs to which organisation (a platform tenant), with which role; operators; the console's own state. */
export const createMembers: Migration = {
  name: '0001_members',
  async up(db) {
    await db.raw(`
      create table members (
        tenant_id uuid not null,
        user_id text not null,
        email text not null,
        role text not null check (role in ('owner', 'admin', 'developer', 'viewer')),
        created_at timestamptz not null default now(),
        primary key (tenant_id, user_id)
      )`);
    await db.raw('create index members_user on members (user_id)');
    await db.raw(`
      create table operators (
        email text primary key,
        created_at timestamptz not null default now()
      )`);
    // The reserved project's keys, the secret encrypted under MASTER_KEY.
    await db.raw(`
      create table console_state (
        key text primary key,
        value jsonb not null
      )`);
  },
  async down(db) {
    await db.raw('drop table console_state');
    await db.raw('drop table operators');
    await db.raw('drop table members');
  },
};
