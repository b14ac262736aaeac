import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Express } from 'express';
import type { Knex } from 'knex';
import {
  createProject,
  PlatformDirectory,
  platformMigrations,
  type CreatedProject,
  SecretBox,
} from '@platform/directory';
import { createDb, migrateLatest } from '@platform/db';
import { InProcessBus, memberActionOutbox, OutboxRelay, type EventBus } from '@platform/events';
import {
  allMigrations,
  assembleService,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceParts,
  type StopFunction,
  loadPlatformConfig,
} from '@platform/runtime';
import { createLogger } from '@platform/http';
import { signAccessToken, type ProjectSettings } from '@platform/tenancy';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';
import { createTestDatabase } from './test-database';

let jwtKeys: { privateKey: string; publicKey: string } | undefined;

/** One RSA pair per test worker (generating one costs tens of milliseconds). */
export function testJwtKeys(): { privateKey: string; publicKey: string } {
  jwtKeys ??= (() => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
  })();
  return jwtKeys;
}

export interface TestServiceOptions {
  /** Environment seen by the platform's and the service's own config, on top of process.env. */
  env?: Record<string, string>;
  bus?: EventBus;
  keyCacheTtlMs?: number;
  /** Reach Postgres through a TCP relay (`TestService.databaseRelay`) that a test can cut. */
  databaseRelay?: boolean;
}

export interface TestService<Shared = unknown> {
  app: Express;
  deps: ServiceDeps;
  /** What `build` returned (routes, jobs, shared state). */
  parts: ServiceParts<Shared>;
  /**
   * Starts the service's jobs (consumers, schedulers, workers), which tests otherwise run
   * without; `close()` stops them too, the returned function stops them earlier.
   */
  startJobs(): Promise<StopFunction>;
  /** Makes a fresh tenant and project with its own keys; with `sameTenantAs`, a second project of that tenant. */
  createProject(settings?: ProjectSettings, sameTenantAs?: TestProject): Promise<TestProject>;
  /** With `databaseRelay`: the relay between the service and Postgres. */
  databaseRelay?: TcpProxy;
  close(): Promise<void>;
}

export interface TestProject extends CreatedProject {
  /** The four key headers. */
  headers: Record<string, string>;
  /** An access token for a user of this project, as Authentication would issue it. */
  accessToken(user: { userId: string; email: string; tokenVersion?: number }): string;
}

/**
 * The service built as in production (real Postgres, migrations, middleware) around fresh
 * databases of its own, so that test files cannot see each other's data.
 */
export async function createTestService<Shared>(
  definition: ServiceDefinition<Shared>,
  options: TestServiceOptions = {},
): Promise<TestService<Shared>> {
  const platformDatabase = await createTestDatabase('platform');
  const serviceDatabase = await createTestDatabase(definition.name);
  const server = new URL(platformDatabase.url);
  const relay = options.databaseRelay ? await startTcpProxy(server.hostname, Number(server.port || 5432)) : undefined;
  const reach = (url: string) => {
    if (!relay) return url;
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(relay.port);
    return parsed.toString();
  };
  const platformDb = createDb({ url: reach(platformDatabase.url), poolMax: 4 });
  const db = createDb({ url: reach(serviceDatabase.url), poolMax: 10 });
  await migrateLatest(platformDb, platformMigrations);
  await migrateLatest(db, allMigrations(definition));
  const env = { ...process.env, NODE_ENV: 'test', ...options.env };
  const config = loadPlatformConfig(env);
  const logger = createLogger(definition.name, process.env.TEST_LOG_LEVEL ?? 'silent');
  const secrets = new SecretBox(randomBytes(32));
  const bus = options.bus ?? new InProcessBus(logger);
  const jwt = testJwtKeys();
  const deps: ServiceDeps = {
    service: definition.name,
    config,
    env,
    logger,
    db,
    platformDb,
    directory: new PlatformDirectory(platformDb, secrets, {
      ttlMs: options.keyCacheTtlMs ?? 30_000,
      // Every test request comes from one address: the per-address limit applies only when a test sets it.
      keyChecks: options.env?.KEY_FAILURE_LIMIT ? config.keyChecks : { ...config.keyChecks, failuresPerAddress: 1e9 },
    }),
    bus,
    relay: new OutboxRelay(db, bus, logger, { pollIntervalMs: 50 }),
    secrets,
    jwt,
  };
  deps.memberActions = memberActionOutbox(db, deps.relay, logger);
  const service = assembleService(definition, deps);
  const running = new Set<StopFunction>();
  return {
    app: service.app,
    deps,
    parts: service.parts,
    async startJobs() {
      const stopJobs = await service.startJobs();
      const stop: StopFunction = async () => {
        if (running.delete(stop)) await stopJobs();
      };
      running.add(stop);
      return stop;
    },
    createProject: (settings, sameTenantAs) => createTestProject(platformDb, secrets, settings, sameTenantAs),
    databaseRelay: relay,
    async close() {
      relay?.restore();
      for (const stop of [...running].reverse()) await stop();
      await service.close();
      await deps.relay.stop();
      if (!options.bus) await bus.close();
      await db.destroy();
      await platformDb.destroy();
      await relay?.close();
      await serviceDatabase.drop();
      await platformDatabase.drop();
    },
  };
}

/** The four key headers of a project. */
export function keyHeaders(keys: {
  apiKey: string;
  secretKey: string;
  tenantId: string;
  projectId: string;
}): Record<string, string> {
  return {
    'x-api-key': keys.apiKey,
    'x-secret-key': keys.secretKey,
    'x-tenant-id': keys.tenantId,
    'x-project-id': keys.projectId,
  };
}

export async function createTestProject(
  platformDb: Knex,
  secrets: SecretBox,
  settings?: ProjectSettings,
  sameTenantAs?: { tenantId: string },
): Promise<TestProject> {
  const suffix = randomBytes(6).toString('hex');
  const tenant = sameTenantAs
    ? ((await platformDb('tenants').where({ id: sameTenantAs.tenantId }).first('name')) as { name: string }).name
    : `tenant-${suffix}`;
  const created = await createProject(platformDb, secrets, {
    tenant,
    project: `project-${suffix}`,
    settings,
  });
  return {
    ...created,
    headers: keyHeaders(created),
    accessToken: (user) =>
      signAccessToken(
        {
          userId: user.userId,
          email: user.email,
          tokenVersion: user.tokenVersion ?? 0,
          tenantId: created.tenantId,
          projectId: created.projectId,
        },
        testJwtKeys().privateKey,
      ),
  };
}
