import type { Migration } from '@platform/db';

export const createSessions: Migration = {
  name: '0005_sessions',
  async up(db) {
    // One row per sign-in. A session's id is the family id of its refresh tokens, so rotation and
    // reuse detection keep working per family while a session can be listed and ended.
    await db.schema.createTable('sessions', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
      t.text('method').notNullable();
      t.text('aal').notNullable();
      t.text('ip');
      t.text('user_agent');
      t.text('device_label').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('last_refreshed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      // When the newest refresh token dies of age: past it the session is over without an end.
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('ended_at', { useTz: true });
      t.text('ended_by');
      t.index(['tenant_id', 'project_id', 'user_id']);
    });
    // Every refresh-token family of the previous release becomes a session, live while a token
    // of it still is, so nobody is signed out by the deploy.
    await db.raw(`
      insert into sessions (id, tenant_id, project_id, user_id, method, aal, device_label, created_at, last_refreshed_at, expires_at, ended_at, ended_by)
      select r.family_id, min(r.tenant_id::text)::uuid, min(r.project_id::text)::uuid, min(r.user_id::text)::uuid,
             'password', 'aal1', 'Unknown device', min(r.created_at), max(r.created_at), max(r.expires_at),
             case when bool_and(r.revoked_at is not null or r.rotated_at is not null or r.token_version <> u.token_version)
                  then now() end,
             case when bool_and(r.revoked_at is not null or r.rotated_at is not null or r.token_version <> u.token_version)
                  then 'system' end
        from refresh_tokens r join users u on u.id = r.user_id
       group by r.family_id`);
    await db.schema.alterTable('refresh_tokens', (t) => {
      t.foreign('family_id').references('sessions.id').onDelete('CASCADE');
    });
  },
  async down(db) {
    await db.schema.alterTable('refresh_tokens', (t) => t.dropForeign(['family_id']));
    await db.schema.dropTable('sessions');
  },
};
