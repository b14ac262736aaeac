import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authService } from '@platform/auth';
import { billingService } from '@platform/billing';
import { cmsService } from '@platform/cms';
import { consoleService, type ConsoleShared } from '@platform/console';
import { createDb, migrateLatest } from '@platform/db';
import { PlatformDirectory, platformMigrations, SecretBox } from '@platform/directory';
import { InProcessBus, memberActionOutbox, OutboxRelay, type EventEnvelope } from '@platform/events';
import { createLogger } from '@platform/http';
import { llmService } from '@platform/llm';
import { mailerService } from '@platform/mailer';
import { notificationsService } from '@platform/notifications';
import {
  allMigrations,
  assembleService,
  type AssembledService,
  type ServiceDefinition,
  type ServiceDeps,
  type StopFunction,
  loadPlatformConfig,
} from '@platform/runtime';
import { signAccessToken } from '@platform/tenancy';
import { createTestDatabase, testJwtKeys, waitFor } from '@platform/testkit';

const DEFINITIONS = [
  authService,
  billingService,
  cmsService,
  llmService,
  mailerService,
  notificationsService,
  consoleService,
] as ServiceDefinition<unknown>[];

export interface RunningPlatform {
  /** Each service's public API, `/v1` included. */
  urls: Record<string, string>;
  mcpUrl: string;
  /** Every event the services published (invitation links among them). */
  published: EventEnvelope[];
  /** A console member's session token (an access token of the console's reserved project). */
  signIn(email?: string): Promise<{ userId: string; email: string; token: string }>;
  stop(): Promise<void>;
}

async function listening(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * The six services and the console in this process, each on a port of its own and a fresh
 * database of its own, sharing one fresh platform database and one in-process bus: the
 * console's MCP endpoint reaches them over HTTP as it does in `pnpm start`.
 */
export async function startPlatform(extraEnv: Record<string, string> = {}): Promise<RunningPlatform> {
  const servers = await Promise.all(DEFINITIONS.map(() => listening()));
  const urls = Object.fromEntries(
    DEFINITIONS.map((d, i) => [d.name, `http://127.0.0.1:${(servers[i].address() as AddressInfo).port}/v1`]),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    CONSOLE_SIGNIN_LIMIT_PER_MINUTE: '1000000',
    CONSOLE_INVITATION_LIMIT_PER_HOUR: '1000000',
    ...Object.fromEntries(Object.entries(urls).map(([name, url]) => [`CONSOLE_${name.toUpperCase()}_URL`, url])),
    ...extraEnv,
  };
  const config = loadPlatformConfig(env);
  const platformDatabase = await createTestDatabase('mcp_platform');
  const platformDb = createDb({ url: platformDatabase.url, poolMax: 6 });
  await migrateLatest(platformDb, platformMigrations);
  const secrets = new SecretBox(randomBytes(32));
  const jwt = testJwtKeys();
  const bus = new InProcessBus(createLogger('bus', 'silent'));
  const published: EventEnvelope[] = [];
  await bus.subscribe({ queue: 'mcp-test', topics: ['platform.#'], handler: async (e) => void published.push(e) });

  const databases: { drop(): Promise<void> }[] = [platformDatabase];
  const assembled: { service: AssembledService<unknown>; deps: ServiceDeps; stopJobs?: StopFunction }[] = [];
  for (const [i, definition] of DEFINITIONS.entries()) {
    const database = await createTestDatabase(`mcp_${definition.name}`);
    databases.push(database);
    const db = createDb({ url: database.url, poolMax: 4 });
    await migrateLatest(db, allMigrations(definition));
    const logger = createLogger(definition.name, process.env.TEST_LOG_LEVEL ?? 'silent');
    const deps: ServiceDeps = {
      service: definition.name,
      config,
      env,
      logger,
      db,
      platformDb,
      directory: new PlatformDirectory(platformDb, secrets, {
        ttlMs: 1_000,
        keyChecks: { ...config.keyChecks, failuresPerAddress: 1e9 },
      }),
      bus,
      relay: new OutboxRelay(db, bus, logger, { pollIntervalMs: 50 }),
      secrets,
      jwt,
    };
    deps.memberActions = memberActionOutbox(db, deps.relay, logger);
    const service = assembleService(definition, deps);
    servers[i].on('request', service.app);
    deps.relay.start();
    assembled.push({ service, deps });
  }
  // The console's jobs: its reserved project and the audit of members' writes in the six.
  const consolePart = assembled[assembled.length - 1];
  consolePart.stopJobs = await consolePart.service.startJobs();
  const reserved = (consolePart.service.parts.shared as ConsoleShared).reserved;

  return {
    urls,
    mcpUrl: `${urls.console}/mcp`,
    published,
    async signIn(email = `m-${randomBytes(4).toString('hex')}@example.com`) {
      const project = await reserved.ensure();
      const userId = randomUUID();
      const token = signAccessToken(
        { userId, email, tokenVersion: 0, tenantId: project.tenantId, projectId: project.projectId },
        jwt.privateKey,
      );
      return { userId, email, token };
    },
    async stop() {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      for (const { service, deps, stopJobs } of assembled.reverse()) {
        await stopJobs?.();
        await service.close();
        await deps.relay.stop();
        await deps.db.destroy();
      }
      await bus.close();
      await platformDb.destroy();
      await Promise.all(databases.map((d) => d.drop()));
    },
  };
}

export { waitFor };
