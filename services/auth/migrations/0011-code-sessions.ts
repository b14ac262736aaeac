import type { Migration } from '@platform/db';

/**
 * The session an app's one-time OIDC code started, and when the code came back a second time:
 * a replayed code ends that session (OAuth 2.0 Security BCP), and an exchange still starting
 * its session when the replay came issues nothing.
 */
export const addCodeSessions: Migration = {
  name: '0011_code_sessions',
  async up(db) {
    await db.schema.alterTable('authorization_codes', (t) => {
      t.uuid('session_id');
      t.timestamp('replayed_at', { useTz: true });
    });
  },
  async down(db) {
    await db.schema.alterTable('authorization_codes', (t) => {
      t.dropColumns('session_id', 'replayed_at');
    });
  },
};
