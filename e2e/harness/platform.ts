import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createProject, platformMigrations, setSetting, type CreatedProject, SecretBox } from '@platform/directory';
import { createDb, migrateLatest } from '@platform/db';
import { createTestDatabase, keyHeaders, startTcpProxy, type TcpProxy } from '@platform/testkit';
import type { ProjectSettings } from '@platform/tenancy';
import { startServiceProcess, type ServiceProcess } from './processes';

export const SERVICE_NAMES = ['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface E2EPlatform {
  urls: Record<ServiceName, string>;
  project: CreatedProject;
  headers: Record<string, string>;
  /** The RabbitMQ connection every service uses goes through this relay (cut it to stop the broker). */
  broker: TcpProxy;
  /** Each service's own database, for a journey that reads what a service holds (its outbox). */
  databaseUrls: Record<ServiceName, string>;
  processes: ServiceProcess[];
  stop(): Promise<void>;
}

export interface E2EOptions {
  vendorEnv: Record<string, string>;
  settings?: ProjectSettings;
}

export interface PreparedEnvironment {
  project: CreatedProject;
  /** Fresh databases, each service's URL as the services are to reach it. */
  databaseUrls: Record<ServiceName, string>;
  /** Environment every service process gets. */
  common: Record<string, string>;
  /** Environment only auth gets (the JWT signing key). */
  authEnv: Record<string, string>;
  /** Drops the databases. */
  drop(): Promise<void>;
}

/**
 * Fresh databases (one per service plus the platform database) with a fresh project, and the
 * environment of the service processes: RabbitMQ under a namespace of their own. `reach`
 * rewrites the URLs the services use (to send them through a relay that a fault can cut).
 */
export async function prepareEnvironment(
  options: E2EOptions & { amqpUrl: string; reachDatabase?: (url: string) => string },
): Promise<PreparedEnvironment> {
  const reach = options.reachDatabase ?? ((url: string) => url);
  const masterKey = randomBytes(32);
  const jwt = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platformDatabase = await createTestDatabase('e2e_platform');
  const platformDb = createDb({ url: platformDatabase.url, poolMax: 2 });
  await migrateLatest(platformDb, platformMigrations);
  const project = await createProject(platformDb, new SecretBox(masterKey), {
    tenant: `e2e-${randomBytes(4).toString('hex')}`,
    project: 'journeys',
  });
  for (const [key, value] of Object.entries(options.settings ?? {}))
    await setSetting(platformDb, project.projectId, key, value);
  await platformDb.destroy();

  const databases = await Promise.all(SERVICE_NAMES.map((name) => createTestDatabase(`e2e_${name}`)));
  return {
    project,
    databaseUrls: Object.fromEntries(SERVICE_NAMES.map((name, i) => [name, reach(databases[i].url)])) as Record<
      ServiceName,
      string
    >,
    common: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PLATFORM_DATABASE_URL: reach(platformDatabase.url),
      AMQP_URL: options.amqpUrl,
      AMQP_NAMESPACE: `e2e-${randomBytes(4).toString('hex')}.`,
      AMQP_QUEUE_EXPIRES_MS: '600000',
      MASTER_KEY: masterKey.toString('base64'),
      JWT_PUBLIC_KEY: jwt.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      KEY_CACHE_TTL_MS: '1000',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
      ...options.vendorEnv,
    },
    authEnv: { JWT_PRIVATE_KEY: jwt.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
    drop: async () => {
      await Promise.all([...databases, platformDatabase].map((d) => d.drop()));
    },
  };
}

/** A local relay in front of the machine's RabbitMQ, and the URL that goes through it. */
export async function relayBroker(): Promise<{ broker: TcpProxy; url: string }> {
  const amqp = new URL(process.env.TEST_AMQP_URL!);
  const broker = await startTcpProxy(amqp.hostname, Number(amqp.port || 5672));
  amqp.hostname = '127.0.0.1';
  amqp.port = String(broker.port);
  return { broker, url: amqp.toString() };
}

/**
 * Six services as six processes against real Postgres (a fresh database each plus the
 * platform database) and real RabbitMQ (under a namespace of their own, through a TCP relay
 * the fault journey can cut), with a fresh project.
 */
export async function startPlatform(options: E2EOptions): Promise<E2EPlatform> {
  const { broker, url } = await relayBroker();
  const env = await prepareEnvironment({ ...options, amqpUrl: url });
  const processes: ServiceProcess[] = [];
  try {
    // Two at a time: six cold starts at once would crowd the two cores.
    for (let i = 0; i < SERVICE_NAMES.length; i += 2) {
      const pair = SERVICE_NAMES.slice(i, i + 2);
      processes.push(
        ...(await Promise.all(
          pair.map((name) =>
            startServiceProcess(name, {
              ...env.common,
              DATABASE_URL: env.databaseUrls[name],
              ...(name === 'auth' ? env.authEnv : {}),
            }),
          ),
        )),
      );
    }
  } catch (error) {
    await Promise.all(processes.map((p) => p.stop()));
    await broker.close();
    await env.drop();
    throw error;
  }
  const urls = Object.fromEntries(processes.map((p) => [p.name, `${p.url}/v1`])) as Record<ServiceName, string>;
  return {
    urls,
    project: env.project,
    headers: { ...keyHeaders(env.project), 'content-type': 'application/json' },
    broker,
    databaseUrls: env.databaseUrls,
    processes,
    async stop() {
      await Promise.all(processes.map((p) => p.stop()));
      await broker.close();
      await env.drop();
    },
  };
}

/** fetch + JSON, returning status and body. */
export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- journeys read deep into bodies
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}
