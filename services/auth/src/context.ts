import type { Knex } from 'knex';
import type { OutboxRelay } from '@platform/events';
import type { KeyObject } from 'node:crypto';
import type { Logger } from '@platform/http';
import type { AuthConfig } from './config';
import type { PasswordHasher } from './passwords/password-hasher';

export type { Tenant } from '@platform/tenancy';

/** What the services of this package need, built once in createApp. */
export interface AuthContext {
  db: Knex;
  relay: OutboxRelay;
  logger: Logger;
  config: AuthConfig;
  /** The signing key parsed once, and its `kid` (the JWKS thumbprint). */
  jwt: { publicKey: string; signingKey: KeyObject; keyId: string };
  passwords: PasswordHasher;
}
