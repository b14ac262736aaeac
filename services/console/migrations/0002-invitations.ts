import type { Migration } from '@platform/db';

/** Invitations by e-mail: only the token's hash is stored; accepted_at makes them single-use. */
export const createInvitations: Migration = {
  name: '0002_invitations',
  async up(db) {
    await db.raw(`
      create table invitations (
        id uuid primary key default gen_random_uuid(),
        tenant_id uuid not null,
        email text not null,
        role text not null check (role in ('owner', 'admin', 'developer', 'viewer')),
        token_hash text not null unique,
        invited_by text not null,
        expires_at timestamptz not null,
        accepted_at timestamptz,
        accepted_by text,
        revoked_at timestamptz,
        created_at timestamptz not null default now()
      )`);
    await db.raw('create index invitations_tenant on invitations (tenant_id, created_at desc)');
  },
  async down(db) {
    await db.raw('drop table invitations');
  },
};
