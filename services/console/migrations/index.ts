import type { Migration } from '@platform/db';
import { createMembers } from './0001-members';
import { createInvitations } from './0002-invitations';
import { createProjectErasures } from './0003-project-erasures';
import { createAuditEntries } from './0004-audit-entries';
import { addOperatorUser } from './0005-operator-user';

/** The console's schema changes, oldest first; never reorder or rename an applied one. */
export const migrations: Migration[] = [
  createMembers,
  createInvitations,
  createProjectErasures,
  createAuditEntries,
  addOperatorUser,
];
