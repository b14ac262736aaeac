import { createLogger } from '@platform/http';
import { assertProductionSecrets, loadPlatformConfig } from './config';
import { ConfigError } from './read-env';
import { createDb, EmbeddedPostgresError } from '@platform/db';
import { startTelemetry, stopTelemetry } from '@platform/telemetry';
import { openInfrastructure } from './infrastructure';
import type { ServiceDefinition } from './service-definition';
import { onShutdownSignal } from './shutdown';
import { migrateService, startService } from './start-service';

function fail(error: unknown): never {
  const message =
    error instanceof ConfigError || error instanceof EmbeddedPostgresError
      ? error.message
      : `start-up failed: ${String((error as Error)?.stack ?? error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** `main.ts` of every service: one service in its own process, as it is deployed. */
export function runStandalone(definition: ServiceDefinition): void {
  // Before the first connection is made, so the HTTP and fetch instrumentations see them all.
  startTelemetry({ service: definition.name });
  (async () => {
    const config = loadPlatformConfig();
    assertProductionSecrets(config, { jwtPrivateKey: definition.name === 'auth' });
    const logger = createLogger(definition.name, config.logLevel);
    const infra = await openInfrastructure(config, logger);
    const running = await startService(definition, infra, logger, config.port ?? definition.defaultPort);
    onShutdownSignal(logger, async () => {
      await running.stop();
      await infra.close();
      await stopTelemetry();
    });
  })().catch(fail);
}

/** `migrate.ts` of every service: apply migrations and exit (a deployment job). */
export function runMigrations(definition: ServiceDefinition): void {
  (async () => {
    const config = loadPlatformConfig();
    const logger = createLogger(definition.name, config.logLevel);
    if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required to run migrations');
    const db = createDb({ url: config.databaseUrl, poolMax: 1, logger });
    await migrateService(db, definition, logger);
    await db.destroy();
  })().catch(fail);
}
