import type { Migration } from '@platform/db';

/** One change per file: `NNNN-what.ts`, named `NNNN_what` (the name databases record as applied). */
export const createNotes: Migration = {
  name: '0001_notes',
  async up(db) {
    await db.raw(`
      create table notes (
        id uuid primary key default gen_random_uuid(),
        tenant_id uuid not null,
        project_id uuid not null,
        title text not null,
        body text not null,
        created_at timestamptz not null default now()
      )`);
    // Every tenant table leads its indexes with the owner: tenantTable filters on both columns.
    await db.raw('create index notes_owner_created on notes (tenant_id, project_id, created_at desc)');
  },
  async down(db) {
    await db.raw('drop table notes');
  },
};
