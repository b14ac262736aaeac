import type { Migration } from '@platform/db';

/** A deleted project's erasure, and each service's confirmation of it. */
export const createProjectErasures: Migration = {
  name: '0003_project_erasures',
  async up(db) {
    await db.raw(`
      create table project_erasures (
        project_id uuid primary key,
        tenant_id uuid not null,
        requested_at timestamptz not null default now()
      )`);
    await db.raw(`
      create table project_erasure_confirmations (
        project_id uuid not null,
        service text not null,
        erased_at timestamptz not null,
        primary key (project_id, service)
      )`);
  },
  async down(db) {
    await db.raw('drop table project_erasure_confirmations');
    await db.raw('drop table project_erasures');
  },
};
