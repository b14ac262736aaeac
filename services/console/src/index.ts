import type { ServiceDefinition, ServiceDeps, ServiceParts } from '@platform/runtime';
import { startRecurringJob } from '@platform/runtime';
import { migrations } from '../migrations';
import { ReservedProject } from './accounts/reserved-project';
import { subscribeMemberActions } from './audit/audit.consumer';
import { pruneAudit } from './audit/audit.service';
import { loadConsoleConfig, type ConsoleConfig } from './config';
import { subscribeErasureConfirmations } from './erasure/erasure.consumer';
import { openapi } from './openapi';
import { createRoutes } from './routes';
import { orgAccess, requireMember } from './access/access.middleware';
import { createSite } from './site/site.router';
import { signingKey } from '@platform/tenancy';

/** What the HTTP side and the jobs share, built once in `build`. */
export interface ConsoleShared {
  config: ConsoleConfig;
  reserved: ReservedProject;
}

/** The composition root: read config, build what is shared, return routes, jobs and close. */
export function buildConsole(deps: ServiceDeps): ServiceParts<ConsoleShared> {
  const config = loadConsoleConfig(deps.env);
  const reserved = new ReservedProject(deps.db, deps.platformDb, deps.secrets);
  const routes = createRoutes(deps, config, reserved);
  const site = createSite({
    config,
    logger: deps.logger,
    accounts: { db: deps.db, platformDb: deps.platformDb, reserved, config },
    memberTokens: {
      db: deps.db,
      platformDb: deps.platformDb,
      signingKey: deps.jwt.privateKey ? signingKey(deps.jwt.privateKey) : undefined,
      ttlSeconds: config.memberTokenTtlSeconds,
    },
    api: routes,
    member: requireMember(deps.jwt.publicKey, reserved),
    org: (permission) => orgAccess(deps.db, permission) as never,
  });
  return {
    routes,
    site: site.router,
    openapi,
    jobs: [
      {
        // Builds the web pages at start when they are missing or older than their source.
        name: 'web-pages',
        start: async () => {
          await site.warm();
          return async () => undefined;
        },
      },
      {
        name: 'reserved-project',
        start: async () => {
          await reserved.ensure();
          return async () => undefined;
        },
      },
      {
        name: 'erasure-confirmations',
        start: async () => {
          await subscribeErasureConfirmations(deps.db, deps.bus);
          return async () => undefined;
        },
      },
      {
        name: 'member-actions',
        start: async () => {
          await subscribeMemberActions(deps.db, deps.bus);
          return async () => undefined;
        },
      },
      {
        name: 'audit-prune',
        start: async () =>
          startRecurringJob({
            name: 'audit prune',
            intervalMs: config.auditPruneIntervalMs,
            firstRunMs: 60_000,
            logger: deps.logger,
            run: async () => {
              const removed = await pruneAudit(deps.db, config.auditRetentionDays);
              if (removed) deps.logger.info('audit entries pruned', { removed });
            },
          }),
      },
    ],
    shared: { config, reserved },
    close: async () => undefined,
  };
}

export const consoleService: ServiceDefinition<ConsoleShared> = {
  name: 'console',
  defaultPort: 4000,
  migrations,
  build: buildConsole,
};

export { createOperator, liftSuspension, suspendOrganisation } from './operators/operators.service';
export { createKey, revokeKey } from './keys/keys.service';
export { updateSettings } from './settings/settings.service';
export type { AuditContext } from './audit/audit.model';
