import type { Migration } from '@platform/db';

export const createLoginFailures: Migration = {
  name: '0004_login_failures',
  async up(db) {
    // Failed logins are counted per email whether or not it has an account, so that the lock
    // (423 after 5) does not tell which emails do. Keyed by the SHA-256 of the normalized
    // email: most emails tried are no account's, and their addresses are not stored.
    await db.schema.createTable('login_failures', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('email_hash').notNullable();
      t.integer('failed_count').notNullable();
      t.timestamp('last_failed_at', { useTz: true }).notNullable();
      t.timestamp('locked_until', { useTz: true });
      t.primary(['tenant_id', 'project_id', 'email_hash']);
      // The prune looks for rows whose last failure is older than the window.
      t.index(['last_failed_at']);
    });
    // Counts and locks in flight move over, so a deploy lifts no lock. users.failed_login_count
    // and users.locked_until are no longer read; they stay until the previous release is gone
    // (replicas migrate on start, and the old ones still serving a rollout select them).
    await db.raw(`
      insert into login_failures (tenant_id, project_id, email_hash, failed_count, last_failed_at, locked_until)
      select tenant_id, project_id, encode(sha256(convert_to(email, 'UTF8')), 'hex'), failed_login_count, now(), locked_until
        from users
       where failed_login_count > 0 or locked_until > now()`);
  },
  async down(db) {
    await db.schema.dropTable('login_failures');
  },
};
