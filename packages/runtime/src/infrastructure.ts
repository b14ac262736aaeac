import Redis from 'ioredis';
import type { Knex } from 'knex';
import {
  createDb,
  ensureDatabase,
  migrateLatest,
  startEmbeddedPostgres,
  withDatabase,
  type EmbeddedServer,
} from '@platform/db';
import { AmqpBus, InProcessBus, type EventBus } from '@platform/events';
import { devJwtKeys, devMasterKey, platformMigrations, SecretBox } from '@platform/directory';
import { type Logger } from '@platform/http';
import type { PlatformConfig } from './config';
import path from 'node:path';

/** What the services of one process share: where the databases are, the bus, secrets. */
export interface Infrastructure {
  config: PlatformConfig;
  embedded?: EmbeddedServer;
  /** URL of a service's own database. */
  databaseUrl(service: string): Promise<string>;
  platformDb: Knex;
  bus: EventBus;
  secrets: SecretBox;
  redis?: Redis;
  jwt: { publicKey: string; privateKey?: string };
  close(): Promise<void>;
}

/**
 * With DATABASE_URL and AMQP_URL set, the deployed shape: real Postgres and RabbitMQ. Without
 * them, the embedded defaults: a Postgres server under .data/postgres with one database per
 * service, and the in-process bus.
 */
export async function openInfrastructure(config: PlatformConfig, logger: Logger): Promise<Infrastructure> {
  const needsEmbedded = !config.databaseUrl || !config.platformDatabaseUrl;
  const embedded = needsEmbedded
    ? await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), config.embeddedPostgresPort)
    : undefined;

  const embeddedDatabase = async (name: string) => {
    await ensureDatabase(embedded!.url, name);
    return withDatabase(embedded!.url, name);
  };

  const platformUrl = config.platformDatabaseUrl ?? (await embeddedDatabase('platform'));
  const platformDb = createDb({ url: platformUrl, poolMax: 4, applicationName: 'platform-directory', logger });
  if (!config.production) await migrateLatest(platformDb, platformMigrations);

  const masterKey = config.masterKey ?? devMasterKey(config.dataDir);
  const jwt =
    config.jwtPublicKey !== undefined
      ? { publicKey: config.jwtPublicKey, privateKey: config.jwtPrivateKey }
      : devJwtKeys(config.dataDir);

  let bus: EventBus;
  if (config.amqpUrl) {
    const amqpBus = new AmqpBus({
      url: config.amqpUrl,
      logger,
      namespace: config.amqpNamespace,
      queueExpiresMs: config.amqpQueueExpiresMs,
    });
    await amqpBus.start();
    bus = amqpBus;
  } else {
    bus = new InProcessBus(logger);
  }

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  redis?.on('error', (error) => logger.warn('redis error', { error: String(error) }));

  return {
    config,
    embedded,
    databaseUrl: async (service) => config.databaseUrl ?? (await embeddedDatabase(service)),
    platformDb,
    bus,
    secrets: new SecretBox(masterKey),
    redis,
    jwt,
    async close() {
      await bus.close();
      await platformDb.destroy();
      redis?.disconnect();
      await embedded?.stop();
    },
  };
}
