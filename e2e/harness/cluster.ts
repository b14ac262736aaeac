import { keyHeaders, startTcpProxy, waitFor, type TcpProxy } from '@platform/testkit';
import type { CreatedProject } from '@platform/directory';
import type { ProjectSettings } from '@platform/tenancy';
import { startBalancer, type Balancer } from './balancer';
import { call, prepareEnvironment, relayBroker, SERVICE_NAMES, type ServiceName } from './platform';
import { bundleServices, startServiceProcess, type ServiceProcess } from './processes';

/** A cold start on a crowded machine can take minutes. */
const START_TIMEOUT_MS = Number(process.env.CHAOS_START_TIMEOUT_MS ?? 300_000);

export interface ClusterOptions {
  vendorEnv: Record<string, string>;
  settings?: ProjectSettings;
  /** Replicas per service (default 1). */
  replicas: Partial<Record<ServiceName, number>>;
  /** Extra environment per service. */
  serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Node.js flags of every service process. */
  nodeArgs?: string[];
  /** Extra environment of one replica; `serial` counts the service's replicas started so far (0, 1, ...). */
  replicaEnv?: (name: ServiceName, serial: number) => Record<string, string>;
}

export interface Cluster {
  /** Each service's /v1 behind its balancer. */
  urls: Record<ServiceName, string>;
  project: CreatedProject;
  headers: Record<string, string>;
  replicas: Record<ServiceName, (ServiceProcess & { serial: number })[]>;
  /** How long each start-up phase took (ms). */
  startup: Record<string, number>;
  balancers: Record<ServiceName, Balancer>;
  /** Every service's Postgres connection (its own database and the platform's) goes through this relay. */
  database: TcpProxy;
  /** Every service's RabbitMQ connection goes through this relay. */
  broker: TcpProxy;
  /** The service's database as the harness reaches it (not through the relay). */
  directDatabaseUrl(name: ServiceName): string;
  /** kill -9 of one replica; a new one takes its place (as a Deployment restarts it). */
  killReplica(name: ServiceName, index: number): Promise<{ killedAt: number }>;
  /** Rolling-deploy step: a new replica starts and turns ready, then the old one gets SIGTERM. */
  rollReplica(name: ServiceName, index: number): Promise<{ signalledAt: number; exitCode: number | string }>;
  /** Stops everything it started; how long each part took (ms). */
  stop(): Promise<Record<string, number>>;
}

/** The project's mail provider (SendGrid at its stand-in) and LLM provider (OpenAI at its stand-in). */
export async function configureProviders(cluster: Pick<Cluster, 'urls' | 'headers'>): Promise<void> {
  // A crowded machine may answer 503 (retry after Retry-After) while pools are still warming up.
  const post = async (url: string, body: unknown) => {
    for (let attempt = 1; ; attempt++) {
      const res = await call(url, { method: 'POST', headers: cluster.headers, body });
      if (res.status !== 503 || attempt === 5) return res;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  };
  const mail = await post(`${cluster.urls.mailer}/providers`, {
    name: 'sendgrid',
    type: 'sendgrid',
    isDefault: true,
    config: { apiKey: 'SG.k', fromEmail: 'a@example.com' },
  });
  const llm = await post(`${cluster.urls.llm}/providers`, { providerType: 'openai', apiKey: 'sk-test-key' });
  if (mail.status !== 201 || llm.status !== 200)
    throw new Error(`provider set-up failed: ${JSON.stringify(mail)} ${JSON.stringify(llm)}`);
}

/**
 * The platform as production runs it: each service as its own processes (several replicas
 * share one database), a balancer in front of each service that follows /readyz, and TCP
 * relays in front of Postgres and RabbitMQ so a fault can cut them without touching the
 * machine's shared servers.
 */
let bundled: Promise<void> | undefined;

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const startup: Record<string, number> = {};
  let phaseStart = Date.now();
  const phase = (name: string) => {
    startup[name] = Date.now() - phaseStart;
    phaseStart = Date.now();
  };
  const server = new URL(process.env.TEST_DATABASE_URL!);
  const database = await startTcpProxy(server.hostname, Number(server.port || 5432));
  const { broker, url: amqpUrl } = await relayBroker();
  const direct: Partial<Record<ServiceName, string>> = {};
  const throughRelay = (url: string) => {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(database.port);
    return parsed.toString();
  };
  const env = await prepareEnvironment({ ...options, amqpUrl, reachDatabase: throughRelay });
  phase('databases');
  // Once per run: the services' code does not change between scenarios.
  bundled ??= bundleServices(SERVICE_NAMES);
  await bundled;
  phase('bundle');
  for (const name of SERVICE_NAMES) {
    const parsed = new URL(env.databaseUrls[name]);
    parsed.hostname = server.hostname;
    parsed.port = server.port || '5432';
    direct[name] = parsed.toString();
  }

  const replicas = Object.fromEntries(SERVICE_NAMES.map((n) => [n, [] as ServiceProcess[]])) as Cluster['replicas'];
  const everyProcess: ServiceProcess[] = [];
  const serials = new Map<ServiceName, number>();
  const launch = async (name: ServiceName) => {
    const serial = serials.get(name) ?? 0;
    serials.set(name, serial + 1);
    const p = await startServiceProcess(
      name,
      {
        ...env.common,
        DATABASE_URL: env.databaseUrls[name],
        LOG_LEVEL: 'info',
        ...(name === 'auth' ? env.authEnv : {}),
        ...options.serviceEnv?.[name],
        ...options.replicaEnv?.(name, serial),
      },
      { bundled: true, startTimeoutMs: START_TIMEOUT_MS, nodeArgs: options.nodeArgs },
    );
    everyProcess.push(p);
    return Object.assign(p, { serial });
  };
  const balancers: Partial<Record<ServiceName, Balancer>> = {};
  const stop = async () => {
    const timings: Record<string, number> = {};
    let at = Date.now();
    const took = (name: string) => {
      timings[name] = Date.now() - at;
      at = Date.now();
    };
    await Promise.all(Object.values(balancers).map((b) => b.close()));
    took('balancers');
    await Promise.all(
      everyProcess.map(async (p) => {
        const from = Date.now();
        await p.stop();
        timings[`${p.name} ${p.pid}`] = Date.now() - from;
      }),
    );
    took('processes');
    await database.close();
    await broker.close();
    took('relays');
    await env.drop();
    took('databases');
    return timings;
  };
  try {
    // The first replicas migrate, then the others join.
    const firsts = await Promise.all(SERVICE_NAMES.map(launch));
    for (const p of firsts) replicas[p.name as ServiceName].push(p);
    phase('first replicas (migrate)');
    const more = SERVICE_NAMES.flatMap((name) => Array.from({ length: (options.replicas[name] ?? 1) - 1 }, () => name));
    for (const p of await Promise.all(more.map(launch))) replicas[p.name as ServiceName].push(p);
    phase('more replicas');
    for (const name of SERVICE_NAMES) balancers[name] = await startBalancer(() => replicas[name]);
    await waitFor(() => SERVICE_NAMES.every((n) => balancers[n]!.ready().length === replicas[n].length), {
      timeoutMs: 30_000,
    });
    phase('balancers');
  } catch (error) {
    await stop();
    throw error;
  }

  /** The new replica is in its balancer's rotation. */
  const inRotation = (name: ServiceName, p: ServiceProcess) =>
    waitFor(() => balancers[name]!.ready().includes(p.url), { timeoutMs: 30_000 });

  return {
    urls: Object.fromEntries(SERVICE_NAMES.map((n) => [n, `${balancers[n]!.url}/v1`])) as Record<ServiceName, string>,
    project: env.project,
    headers: { ...keyHeaders(env.project), 'content-type': 'application/json' },
    replicas,
    startup,
    balancers: balancers as Record<ServiceName, Balancer>,
    database,
    broker,
    directDatabaseUrl: (name) => direct[name]!,
    async killReplica(name, index) {
      const victim = replicas[name][index];
      const killedAt = Date.now();
      victim.signal('SIGKILL');
      await victim.exited;
      replicas[name].splice(index, 1);
      const replacement = await launch(name);
      replicas[name].push(replacement);
      await inRotation(name, replacement);
      return { killedAt };
    },
    async rollReplica(name, index) {
      const old = replicas[name][index];
      const replacement = await launch(name);
      replicas[name].push(replacement);
      await inRotation(name, replacement);
      const signalledAt = Date.now();
      old.signal('SIGTERM');
      const exitCode = await old.exited;
      replicas[name].splice(replicas[name].indexOf(old), 1);
      return { signalledAt, exitCode };
    },
    stop,
  };
}
