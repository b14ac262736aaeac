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

/** What the HTTP side and the jobs share, built once in `build`. */
export interface ConsoleShared {
  config: ConsoleConfig;
  reserved: ReservedProject;
}

/** The composition root: read config, build what is shared, return routes, jobs and close. */
export function buildConsole(deps: ServiceDeps): ServiceParts<ConsoleShared> {
  const config = loadConsoleConfig(deps.env);
  const reserved = new ReservedProject(deps.db, deps.platformDb, deps.secrets);
  return {
    routes: createRoutes(deps, config, reserved),
    openapi,
    jobs: [
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
