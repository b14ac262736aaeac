import type { BuiltServiceDefinition, ServiceDeps, ServiceParts } from '@platform/runtime';
import { ConfigError, signingKey } from '@platform/tenancy';
import { migrations } from '../migrations';
import { loadAuthConfig, type AuthConfig } from './config';
import type { AuthContext } from './context';
import { jwksOf } from './jwks/jwks';
import { startLoginFailurePrune } from './lockout/login-failures.prune';
import { openapi } from './openapi';
import { PasswordHasher } from './passwords/password-hasher';
import { createRoutes } from './routes';

export { loadAuthConfig, type AuthConfig } from './config';

/** What the HTTP side and the jobs share, built once in `build`. */
export interface AuthShared {
  config: AuthConfig;
  /** The signing key parsed once, and its `kid`; the password hasher of the configured cost. */
  ctx: AuthContext;
}

/** The composition root: config, the signing key and hasher, the route table and the prune job. */
export function buildAuth(deps: ServiceDeps): ServiceParts<AuthShared> {
  const config = loadAuthConfig(deps.env);
  const { privateKey, publicKey } = deps.jwt;
  if (!privateKey) throw new ConfigError('The Authentication service needs JWT_PRIVATE_KEY to sign access tokens');
  const ctx: AuthContext = {
    db: deps.db,
    relay: deps.relay,
    logger: deps.logger,
    config,
    jwt: { publicKey, signingKey: signingKey(privateKey), keyId: jwksOf(publicKey).keys[0].kid },
    passwords: new PasswordHasher(config.bcryptCost),
  };
  return {
    routes: createRoutes(deps, ctx),
    openapi,
    jobs: [{ name: 'login-failures-prune', start: async () => startLoginFailurePrune(deps.db, deps.logger) }],
    shared: { config, ctx },
    close: async () => undefined,
  };
}

export const authService: BuiltServiceDefinition<AuthShared> = {
  name: 'auth',
  defaultPort: 4001,
  migrations,
  build: buildAuth,
};
