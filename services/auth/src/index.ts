import {
  projectErasureJob,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceParts,
  ConfigError,
} from '@platform/runtime';
import { signingKey } from '@platform/tenancy';
import { migrations } from '../migrations';
import { loadAuthConfig, type AuthConfig } from './config';
import type { Issuer } from './issuer';
import { startAnonymousUserPrune } from './anonymous/anonymous.prune';
import { startSecurityEventPrune } from './audit/audit.prune';
import { jwksOf } from './jwks/jwks';
import { startLoginFailurePrune } from './lockout/login-failures.prune';
import { openapi } from './openapi';
import { ERASURE_TABLES } from './project-erasure';
import { PasswordHasher } from './passwords/password-hasher';
import { createRoutes } from './routes';
import { systemClock } from './shared/clock';

export { loadAuthConfig, type AuthConfig } from './config';

/** What the HTTP side and the jobs share, built once in `build`. */
export interface AuthShared {
  config: AuthConfig;
  /** The password hasher of the configured cost, the signing key parsed once and its `kid`. */
  issuer: Issuer;
}

/** The composition root: config, the signing key and hasher, the route table, the prune and erasure jobs. */
export function buildAuth(deps: ServiceDeps): ServiceParts<AuthShared> {
  const config = loadAuthConfig(deps.env);
  const { privateKey, publicKey } = deps.jwt;
  if (!privateKey) throw new ConfigError('The Authentication service needs JWT_PRIVATE_KEY to sign access tokens');
  const issuer: Issuer = {
    passwords: new PasswordHasher(config.bcryptCost),
    signer: { signingKey: signingKey(privateKey), keyId: jwksOf(publicKey).keys[0].kid },
    appUrl: config.appUrl,
    clock: { ...systemClock },
  };
  return {
    routes: createRoutes(deps, config, issuer),
    openapi,
    jobs: [
      { name: 'login-failures-prune', start: async () => startLoginFailurePrune(deps.db, deps.logger) },
      projectErasureJob(deps, 'auth', ERASURE_TABLES),
      {
        name: 'security-events-prune',
        start: async () => startSecurityEventPrune(deps.db, deps.logger, config.eventRetentionDays),
      },
      {
        name: 'anonymous-users-prune',
        start: async () =>
          startAnonymousUserPrune(deps.db, deps.relay, deps.logger, {
            maxAgeMs: config.anonymousMaxAgeMs,
            intervalMs: config.anonymousPruneIntervalMs,
            batchSize: 500,
          }),
      },
    ],
    shared: { config, issuer },
    close: async () => undefined,
  };
}

export const authService: ServiceDefinition<AuthShared> = {
  name: 'auth',
  defaultPort: 4001,
  migrations,
  build: buildAuth,
};
