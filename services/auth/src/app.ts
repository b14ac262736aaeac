import type { Express } from 'express';
import { readinessOf, type ServiceDeps } from '@platform/runtime';
import { createHttpApp } from '@platform/http';
import { ConfigError, signingKey } from '@platform/tenancy';
import { loadAuthConfig, type AuthConfig } from './config';
import type { AuthContext } from './context';
import { jwksOf } from './jwks/jwks';
import { openapi } from './openapi';
import { PasswordHasher } from './passwords/password-hasher';
import { createRoutes } from './routes';

export function createApp(deps: ServiceDeps): Express {
  return createAuthApp(deps, loadAuthConfig(deps.env));
}

/** The app with an explicit configuration (tests and benchmarks choose the bcrypt cost and limits). */
export function createAuthApp(deps: ServiceDeps, config: AuthConfig): Express {
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
  return createHttpApp({
    service: 'auth',
    logger: deps.logger,
    openapi,
    routes: createRoutes(deps, ctx, config),
    readiness: readinessOf(deps),
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
  });
}
