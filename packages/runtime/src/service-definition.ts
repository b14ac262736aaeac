import type { Express } from 'express';
import type Redis from 'ioredis';
import type { Knex } from 'knex';
import type { Migration } from '@platform/db';
import type { EventBus, OutboxRelay } from '@platform/events';
import type { Logger, PlatformConfig, PlatformDirectory, SecretBox } from '@platform/tenancy';

export type ServiceName = 'auth' | 'billing' | 'cms' | 'llm' | 'mailer' | 'notifications';

/** Everything a service is handed at start; tests build the same object around a fresh database. */
export interface ServiceDeps {
  service: ServiceName;
  config: PlatformConfig;
  /** Where the service reads its own settings: process.env, or a test's environment. */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** The service's own database. */
  db: Knex;
  /** Tenants, projects and keys (read through `directory`). */
  platformDb: Knex;
  directory: PlatformDirectory;
  bus: EventBus;
  /** Call `relay.kick()` after committing a transaction that wrote events, to send them at once. */
  relay: OutboxRelay;
  secrets: SecretBox;
  redis?: Redis;
  jwt: { publicKey: string; privateKey?: string };
  /** Set by the runtime once the service is stopping (tests built without the runtime leave it out). */
  lifecycle?: { draining: boolean };
}

export type StopFunction = () => Promise<void>;

export interface ServiceDefinition {
  name: ServiceName;
  defaultPort: number;
  /** The service's own migrations; the event tables are added in front by the runtime. */
  migrations: Migration[];
  /** Builds the HTTP app; pure, no listen(). */
  createApp(deps: ServiceDeps): Express;
  /** Consumers, schedulers and workers that run beside the HTTP server. */
  startBackground?(deps: ServiceDeps): Promise<StopFunction>;
}
