import type { Migration } from '@platform/db';

/**
 * The audit log, append-only. A trigger refuses every UPDATE, every TRUNCATE and every DELETE
 * except the retention prune, which runs inside `prune_audit_entries` (SECURITY DEFINER, as the
 * table's owner) and never removes an entry younger than a day. The service's login therefore
 * cannot change or remove an entry, whatever grants it holds on the table; the grants are
 * revoked here as well.
 */
export const createAuditEntries: Migration = {
  name: '0004_audit_entries',
  async up(db) {
    await db.raw(`
      create table audit_entries (
        seq bigint generated always as identity primary key,
        id uuid not null unique default gen_random_uuid(),
        at timestamptz not null default now(),
        tenant_id uuid,
        project_id uuid,
        actor_id text,
        actor_email text,
        action text not null,
        target text,
        outcome text not null,
        client_address text,
        user_agent text,
        source text not null,
        details jsonb not null default '{}',
        event_id uuid unique
      )`);
    await db.raw('create index audit_entries_tenant on audit_entries (tenant_id, seq desc)');
    await db.raw('create index audit_entries_at on audit_entries (at)');
    await db.raw(`
      create function audit_entries_append_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and current_setting('console.audit_prune', true) = 'on'
           and current_user = (select tableowner from pg_tables where tablename = 'audit_entries' and schemaname = tg_table_schema)
        then
          return old;
        end if;
        raise exception 'audit entries are append-only' using errcode = '42501';
      end $$`);
    await db.raw(`create trigger audit_entries_no_update before update or delete on audit_entries
      for each row execute function audit_entries_append_only()`);
    await db.raw(`create trigger audit_entries_no_truncate before truncate on audit_entries
      for each statement execute function audit_entries_append_only()`);
    await db.raw(`
      create function prune_audit_entries(older_than timestamptz) returns bigint
      language plpgsql security definer set search_path = public as $$
      declare removed bigint;
      begin
        perform set_config('console.audit_prune', 'on', true);
        delete from audit_entries where at < least(older_than, now() - interval '1 day');
        get diagnostics removed = row_count;
        perform set_config('console.audit_prune', 'off', true);
        return removed;
      end $$`);
    // grantServiceRole reads this mark and withholds UPDATE, DELETE and TRUNCATE from the login.
    await db.raw(`comment on table audit_entries is 'append-only: the control plane''s audit log'`);
    await db.raw('revoke update, delete, truncate on audit_entries from public');
    // Logins granted by default privileges before this table existed lose the same rights.
    await db.raw(`
      do $$ declare r record; begin
        for r in select distinct grantee from information_schema.role_table_grants
                 where table_name = 'audit_entries' and privilege_type in ('UPDATE', 'DELETE', 'TRUNCATE')
                   and grantee <> current_user
        loop
          execute format('revoke update, delete, truncate on audit_entries from %I', r.grantee);
        end loop;
      end $$`);
  },
  async down(db) {
    await db.raw('drop function prune_audit_entries(timestamptz)');
    await db.raw('drop table audit_entries');
    await db.raw('drop function audit_entries_append_only()');
  },
};
