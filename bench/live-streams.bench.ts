/**
 * Live streams (issue 18): BENCH_LIVE_STREAMS (10,000) Server-Sent Events connections held
 * by one service process, opened by a load generator in a child process (bench/lib/sse-load.ts,
 * started with a raised file-descriptor limit). Targets:
 * - memory of the service process under 20 KB per connection (settled RSS, before and after; the
 *   load generator's memory is its own process's);
 * - one broadcast reaches every stream with p99 under 1 s from the POST's response;
 * - per-user notifications at 100/s for BENCH_SECONDS (10) delivered with p99 under 50 ms.
 */
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createProject, PlatformDirectory, platformMigrations, SecretBox } from '@platform/directory';
import { createDb, ensureDatabase, migrateLatest, withDatabase } from '@platform/db';
import { InProcessBus, OutboxRelay } from '@platform/events';
import { notificationsService } from '@platform/notifications';
import { allMigrations, assembleService, type ServiceDeps, loadPlatformConfig } from '@platform/runtime';
import { createLogger } from '@platform/http';
import { keyHeaders, median, testJwtKeys } from '@platform/testkit';
import { benchDatabaseServer } from './lib/database';
import { listenService } from './lib/listen';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const timeNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? NaN;
}

/**
 * Memory once the process has settled: collected, and the pages a collection freed given back.
 * V8 releases them a while after the collection, so right after opening 10,000 streams the old
 * space still held about as much free as used, which RSS counted. Polled until RSS has stopped
 * falling for three seconds (V8's memory reducer waits a few seconds of quiet before it acts).
 */
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  let lowest = Infinity;
  let still = 0;
  for (let round = 0; round < 30 && still < 3; round++) {
    for (let i = 0; i < 3; i++) gc();
    await sleep(1_000);
    const { rss } = process.memoryUsage();
    still = rss < lowest * 0.99 ? 0 : still + 1;
    lowest = Math.min(lowest, rss);
  }
  return process.memoryUsage();
}

/** The load generator, in a shell that raises its file-descriptor limit first. */
function startLoad(): { child: ChildProcess; ask<T>(message: object, reply: string): Promise<T> } {
  const script = path.join(__dirname, 'lib', 'sse-load.ts');
  const child = spawn(
    'bash',
    [
      '-c',
      'ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"',
      process.execPath,
      '--import',
      'tsx',
      script,
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], cwd: path.join(__dirname, '..') },
  );
  const ask = <T>(message: object, reply: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (answer: { type: string }) => {
        if (answer.type !== reply) return;
        child.off('message', onMessage);
        resolve(answer as T);
      };
      child.on('message', onMessage);
      if (Object.keys(message).length) child.send(message);
    });
  return { child, ask };
}

export default async function bench(): Promise<string[]> {
  const limit = Number(execSync('ulimit -n', { shell: '/bin/bash' }).toString().trim());
  if (limit < STREAMS + 1_000) {
    return [`SKIP  live streams: this shell allows ${limit} open files; run \`ulimit -n ${STREAMS + 5_000}\` first`];
  }
  const server = await benchDatabaseServer();
  await ensureDatabase(server.url, 'bench_live');
  await ensureDatabase(server.url, 'bench_live_platform');
  const db = createDb({ url: withDatabase(server.url, 'bench_live'), poolMax: 10 });
  const platformDb = createDb({ url: withDatabase(server.url, 'bench_live_platform'), poolMax: 4 });
  const logger = createLogger('notifications', process.env.BENCH_LOG_LEVEL ?? 'silent');
  const bus = new InProcessBus(logger);
  const secrets = new SecretBox(randomBytes(32));
  const load = startLoad();
  const ready = load.ask({}, 'ready');
  let stop: (() => Promise<void>) | undefined;
  let listening: { url: string; close(): Promise<void> } | undefined;
  try {
    await migrateLatest(platformDb, platformMigrations);
    await migrateLatest(db, allMigrations(notificationsService));
    const project = await createProject(platformDb, secrets, {
      tenant: `bench-${randomBytes(4).toString('hex')}`,
      project: 'live',
    });
    const headers = keyHeaders(project);
    const env = {
      ...process.env,
      NOTIFICATIONS_STREAMS_PER_PROJECT: String(STREAMS * 2),
      NOTIFICATIONS_STREAMS_PER_USER: '10',
    };
    const deps: ServiceDeps = {
      service: 'notifications',
      // One project opens all its streams at once: past the per-project cap on requests in progress.
      config: loadPlatformConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'error',
        PROJECT_RATE_LIMIT: '1000000000',
        PROJECT_MAX_IN_FLIGHT: String(STREAMS * 2),
      }),
      env,
      logger,
      db,
      platformDb,
      directory: new PlatformDirectory(platformDb, secrets),
      bus,
      relay: new OutboxRelay(db, bus, logger),
      secrets,
      jwt: testJwtKeys(),
    };
    const service = assembleService(notificationsService, deps);
    const stopJobs = await service.startJobs();
    stop = async () => {
      await stopJobs();
      await service.close();
    };
    // Every stream comes from one loopback address: past the connection caps per address and in all.
    listening = await listenService(service.app, {
      maxConnections: STREAMS * 2,
      maxConnectionsPerAddress: STREAMS * 2,
    });
    const { url } = listening;
    await ready;

    const before = await settledMemory();
    const users = Array.from({ length: STREAMS }, (_, i) => `user-${i}`);
    const openedAt = Date.now();
    const opened = await load.ask<{ connected: number; failed: number }>(
      { type: 'open', url: `${url}/v1/notifications/stream`, headers, users },
      'opened',
    );
    const openSeconds = (Date.now() - openedAt) / 1_000;
    const after = await settledMemory();
    const perConnection = (after.rss - before.rss) / opened.connected;
    const heapPerConnection = (after.heapUsed - before.heapUsed) / opened.connected;

    const post = async (body: object): Promise<number> => {
      const res = await fetch(`${url}/v1/notifications`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`create answered ${res.status}`);
      await res.arrayBuffer();
      return timeNow();
    };
    const arrivals = async (title: string) =>
      (await load.ask<{ times: number[] }>({ type: 'arrivals', title }, 'arrivals')).times;

    // One broadcast to every stream.
    const sentAt = await post({ title: 'mark-broadcast', message: 'to everyone' });
    let reached: number[] = [];
    for (let waited = 0; waited < 30_000; waited += 200) {
      reached = await arrivals('mark-broadcast');
      if (reached.length >= opened.connected) break;
      await sleep(200);
    }
    const broadcastP99 = p99(reached.map((t) => Math.max(0, t - sentAt)));

    // Per-user notifications at 100/s.
    const sent: { title: string; at: number }[] = [];
    const pending: Promise<void>[] = [];
    const started = timeNow();
    for (let i = 0; i < SECONDS * 100; i++) {
      const due = started + i * 10;
      if (due > timeNow()) await sleep(due - timeNow());
      const title = `mark-user-${i}`;
      const userId = users[Math.floor(Math.random() * users.length)];
      pending.push(post({ userId, title, message: 'x' }).then((at) => void sent.push({ title, at })));
    }
    await Promise.all(pending);
    await sleep(1_000);
    const latencies: number[] = [];
    let missing = 0;
    for (const { title, at } of sent) {
      const times = await arrivals(title);
      if (times.length) latencies.push(Math.max(0, times[0] - at));
      else missing++;
    }
    const userP99 = p99(latencies);
    const userP50 = median(latencies);

    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    return [
      `${verdict(opened.connected === STREAMS && perConnection < 20 * 1024)}  ${opened.connected.toLocaleString('en')} streams held by one process (${opened.failed} refused, opened in ${openSeconds.toFixed(1)} s): ${kb(perConnection)} KB RSS per connection (heap ${kb(heapPerConnection)} KB) (target < 20 KB)`,
      `${verdict(reached.length >= opened.connected && broadcastP99 < 1_000)}  one broadcast reached ${reached.length.toLocaleString('en')} streams: p99 ${broadcastP99.toFixed(0)} ms after the POST's response (target < 1000 ms)`,
      `${verdict(missing === 0 && userP99 < 50)}  per-user notifications at 100/s for ${SECONDS} s: ${latencies.length} delivered, ${missing} missing, p50 ${userP50.toFixed(1)} ms, p99 ${userP99.toFixed(1)} ms after the POST's response (target p99 < 50 ms)`,
    ];
  } finally {
    load.child.kill();
    await stop?.();
    await listening?.close();
    await bus.close();
    await db.destroy();
    await platformDb.destroy();
    await server.stop();
  }
}
