import type { Migration } from '@platform/db';

/**
 * A user a builder disabled cannot log in or refresh (`disabled_at`), and a project's users are
 * listed by email prefix: an index in byte order ("C"), where a prefix is one range of the
 * index whatever the database's collation, and the list's order is the same on every server.
 */
export const addUserAdmin: Migration = {
  name: '0008_user_admin',
  async up(db) {
    await db.schema.alterTable('users', (t) => {
      t.timestamp('disabled_at', { useTz: true });
    });
    await db.raw('create index users_by_email on users (tenant_id, project_id, (email collate "C"))');
  },
  async down(db) {
    await db.raw('drop index users_by_email');
    await db.schema.alterTable('users', (t) => {
      t.dropColumn('disabled_at');
    });
  },
};
