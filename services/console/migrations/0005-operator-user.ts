import type { Migration } from '@platform/db';

/**
 * The user an operator is: bound when the command line names it or at the first sign-in whose
 * e-mail Authentication has verified. An address alone never makes anyone an operator.
 */
export const addOperatorUser: Migration = {
  name: '0005_operator_user',
  async up(db) {
    await db.raw('alter table operators add column user_id text unique');
  },
  async down(db) {
    await db.raw('alter table operators drop column user_id');
  },
};
