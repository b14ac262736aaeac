import type { Router } from 'express';
import type Redis from 'ioredis';
import type { Knex } from 'knex';
import type { Migration } from '@platform/db';
import type { PlatformDirectory, SecretBox } from '@platform/directory';
import type { EventBus, OutboxRelay } from '@platform/events';
import type { HttpAppOptions, Logger } from '@platform/http';
import type { MemberActionSink } from '@platform/tenancy';
import type { PlatformConfig } from './config';

/** The six services, the console (their control plane), and the example in services/_template. */
export type ServiceName = 'auth' | 'billing' | 'cms' | 'llm' | 'mailer' | 'notifications' | 'console' | 'template';

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
  /** Kicked by `withOutbox` after a transaction that wrote events commits, to send them at once. */
  relay: OutboxRelay;
  secrets: SecretBox;
  redis?: Redis;
  jwt: { publicKey: string; privateKey?: string };
  /** Where writes made with a console member token go (`platform.member.action`); unset, they are not recorded. */
  memberActions?: MemberActionSink;
  /** Set by the runtime once the service is stopping (tests built without the runtime leave it out). */
  lifecycle?: { draining: boolean };
}

export type StopFunction = () => Promise<void>;

/** Work that runs beside the HTTP server: a consumer, a scheduler, a worker. */
export interface Job {
  name: string;
  /** Starts the job; the function returned stops it (and waits for work in progress). */
  start(): Promise<StopFunction>;
}

/** What a service's `build` returns: everything the runtime needs to serve and run it. */
export interface ServiceParts<Shared = unknown> {
  /** The whole /v1 route table. */
  routes: Router;
  /** The service's OpenAPI document, served at /v1/openapi.json. */
  openapi: object;
  /** Pages served beside the API (the console's web app and its same-origin pass-through). */
  site?: Router;
  /** The service's own metrics, served on /metrics beside the HTTP ones. */
  metrics?: HttpAppOptions['metrics'];
  /** Paths whose errors take another shape than the common envelope (wherever raised, before the route too). */
  errorShapes?: HttpAppOptions['errorShapes'];
  /** Started by the runtime after the HTTP app is built; tests start them only when they ask. */
  jobs: Job[];
  /** What HTTP and the jobs share (built once in `build`); tests and benches may inspect it. */
  shared: Shared;
  /** Releases what `build` made (threads, timers, caches); called after the jobs stopped. */
  close(): Promise<void>;
}

/** A service: its name, port and migrations, and `build(deps)`, its one composition root. */
export interface ServiceDefinition<Shared = unknown> {
  name: ServiceName;
  defaultPort: number;
  /** The service's own migrations; the event tables are added in front by the runtime. */
  migrations: Migration[];
  /** Makes the service's routes, jobs and shared state around its deps. */
  build(deps: ServiceDeps): ServiceParts<Shared>;
}
