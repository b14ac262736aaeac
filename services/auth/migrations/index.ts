import type { Migration } from '@platform/db';
import { createUsers } from './0001-users';
import { createRefreshTokens } from './0002-refresh-tokens';
import { createAccountTokens } from './0003-account-tokens';
import { createLoginFailures } from './0004-login-failures';
import { createSessions } from './0005-sessions';
import { createSecurityEvents } from './0006-security-events';
import { createMfa } from './0007-mfa';
import { addUserAdmin } from './0008-user-admin';
import { createPasskeys } from './0009-passkeys';
import { addSignInMethods } from './0010-sign-in-methods';
import { addCodeSessions } from './0011-code-sessions';

/**
 * The Authentication service's schema changes, oldest first: one file per change (`NNNN-what.ts`,
 * named `NNNN_what`, the name databases record as applied); never reorder or rename one.
 */
export const migrations: Migration[] = [
  createUsers,
  createRefreshTokens,
  createAccountTokens,
  createLoginFailures,
  createSessions,
  createSecurityEvents,
  createMfa,
  addUserAdmin,
  createPasskeys,
  addSignInMethods,
  addCodeSessions,
];
