import type { Migration } from '@platform/db';

export const createSecurityEvents: Migration = {
  name: '0006_security_events',
  async up(db) {
    // The audit trail: what happened to an account, kept AUTH_EVENT_RETENTION_DAYS. user_id is
    // null for a failed sign-in with an email that has no account; the user's rows go with them.
    await db.schema.createTable('security_events', (t) => {
      t.uuid('id').primary();
      // The order of the trail (and its cursor): events of one request share a time.
      t.bigIncrements('seq', { primaryKey: false });
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').references('users.id').onDelete('CASCADE');
      t.text('type').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.text('ip');
      t.text('user_agent');
      // No foreign key: an event is kept for its retention whatever becomes of the session.
      t.uuid('session_id');
      t.jsonb('data').notNullable().defaultTo('{}');
      t.index(['tenant_id', 'project_id', 'seq']);
      t.index(['tenant_id', 'project_id', 'user_id', 'seq']);
      // The retention prune looks for the oldest rows across projects.
      t.index(['created_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('security_events');
  },
};
