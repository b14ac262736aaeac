import type { Server } from 'node:http';
import { createDb, migrateLatest, type Migration } from '@platform/db';
import { PlatformDirectory } from '@platform/directory';
import { eventMigrations, memberActionOutbox, OutboxRelay } from '@platform/events';
import { listenHttp, type Logger } from '@platform/http';
import type { Knex } from 'knex';
import { assembleService } from './assemble';
import type { Infrastructure } from './infrastructure';
import type { ServiceDefinition, ServiceDeps, StopFunction } from './service-definition';

/** The migrations a service's database gets: the event tables, then the service's own. */
export function allMigrations(definition: ServiceDefinition): Migration[] {
  return [...eventMigrations, ...definition.migrations];
}

/** Migrates, waiting while another replica holds the migration lock. */
export async function migrateService(db: Knex, definition: ServiceDefinition, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const applied = await migrateLatest(db, allMigrations(definition));
      if (applied.length) logger.info('migrations applied', { migrations: applied });
      return;
    } catch (error) {
      if ((error as Error).name !== 'MigrationLocked' || attempt >= 30) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

export interface RunningService {
  name: string;
  port: number;
  server: Server;
  deps: ServiceDeps;
  stop: StopFunction;
}

export async function startService(
  definition: ServiceDefinition,
  infra: Infrastructure,
  logger: Logger,
  port = definition.defaultPort,
): Promise<RunningService> {
  const db = createDb({ url: await infra.databaseUrl(definition.name), applicationName: definition.name, logger });
  await migrateService(db, definition, logger);
  const directory = new PlatformDirectory(infra.platformDb, infra.secrets, {
    ttlMs: infra.config.keyCacheTtlMs,
    keyChecks: infra.config.keyChecks,
  });
  const relay = new OutboxRelay(db, infra.bus, logger);
  const deps: ServiceDeps = {
    service: definition.name,
    config: infra.config,
    env: process.env,
    logger,
    db,
    platformDb: infra.platformDb,
    directory,
    bus: infra.bus,
    relay,
    secrets: infra.secrets,
    redis: infra.redis,
    jwt: infra.jwt,
    memberActions: memberActionOutbox(db, relay, logger),
    lifecycle: { draining: false },
  };
  const service = assembleService(definition, deps);
  const stopJobs = await service.startJobs();
  relay.start();
  const server = await listenHttp(service.app, port, undefined, infra.config.connections);
  logger.info('listening', { port });

  // Readiness turns red first and the server keeps serving while balancers take the replica
  // out; only then does it stop accepting, and in-flight requests get SHUTDOWN_DRAIN_MS to end.
  // Closing at once would reset keep-alive connections a balancer is about to send on.
  const stop: StopFunction = async () => {
    deps.lifecycle!.draining = true;
    await new Promise((resolve) => setTimeout(resolve, infra.config.shutdownReadinessDelayMs));
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const drainTimeout = setTimeout(() => server.closeAllConnections(), infra.config.shutdownDrainMs);
    await drained;
    clearTimeout(drainTimeout);
    await stopJobs();
    await service.close();
    await relay.stop();
    await db.destroy();
  };
  return { name: definition.name, port, server, deps, stop };
}
