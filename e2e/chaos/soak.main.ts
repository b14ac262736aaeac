/**
 * `pnpm soak [duration]`: the journeys at a steady rate against all six services for the
 * duration (`3m`, `90s`; or SOAK_DURATION; 30 minutes by default, CI runs 3), sampling every process's RSS, heap and open handles, each
 * database's connections and each outbox's backlog every SOAK_SAMPLE_MS (10 s). Asserts no
 * upward trend beyond 10% after warm-up and no growth in handles, connections or backlog;
 * prints the curves and writes them to an SVG file. Exits non-zero when a check fails.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '@platform/db';
import { configureProviders, startCluster } from '../harness/cluster';
import { startLoad } from '../harness/load';
import { SERVICE_NAMES } from '../harness/platform';
import { checkRequests, Report } from '../harness/report';
import { startOpenAiStandIn, startSendgridStandIn } from '../harness/stand-ins';
import { floorOf, soakChart, trendOf, type Series } from './soak.chart';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
/** `90s`, `3m`, `1h` or milliseconds. */
const parseDuration = (text: string) => {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text} (try 90s, 3m, 1h)`);
  return Number(match[1]) * UNITS[match[2] ?? 'ms'];
};
const DURATION_MS = parseDuration(
  process.argv[2] ?? process.env.SOAK_DURATION ?? process.env.SOAK_DURATION_MS ?? String(30 * 60_000),
);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_MS ?? 10_000);
const RATE = Number(process.env.SOAK_RATE ?? 20);
/** The first fifth of the run (at least one minute) is warm-up: JIT, caches and pools fill. */
const WARM_UP_MS = Math.max(60_000, DURATION_MS / 5);
const GROWTH_LIMIT = 0.1;
/**
 * Sockets and database connections may settle a few higher after warm-up: a pool (at most 10
 * connections, kept 30 s when idle) opens more at a busier moment and the load keeps them in use.
 * A leak grows with the requests (thousands of them in three minutes) and passes this soon.
 */
const POOL_STEP = 6;
/**
 * Each series is judged by its floor over a minute of samples: a leak lifts it, while the sockets
 * and pooled connections of a busier moment, or a GC saw-tooth, come and go above it.
 */
const FLOOR_SAMPLES = Math.max(1, Math.round(60_000 / SAMPLE_MS));
/**
 * The heap is sampled after a full collection, so it has no saw-tooth to take the floor of; its
 * floor would carry one low sample through a minute of samples, which a short run reads as growth
 * of a heap that is flat before and after that sample.
 */
const judgedAsSampled = (name: string) => /heap/.test(name);
/**
 * RSS is judged only in runs of ten minutes or more. In the first minutes V8 gives pages back
 * after a full collection and takes them again as it settles, so the floor of a short run climbs
 * with no object retained (the heap after the same collections stays flat); the heap catches a
 * JavaScript leak in a short run, and the default 30-minute run catches native growth.
 */
const RSS_JUDGED_FROM_MS = 10 * 60_000;
const trendLine = (name: string, trend: { start: number; end: number; relative: number }) =>
  `${trend.start.toFixed(1)} -> ${trend.end.toFixed(1)} on the fitted line of its ${judgedAsSampled(name) ? 'samples' : 'floor'} (${(trend.relative * 100).toFixed(1)}%)`;
const SVG = process.env.SOAK_SVG ?? path.join(process.cwd(), '.data', 'soak.svg');

/** One line of Prometheus text: the value of a metric without labels beyond `service`. */
const metric = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line ? Number(line.trim().split(/\s+/).pop()) : NaN;
};

/** `nodejs_active_handles{type="Socket"} 5` lines as "Socket 5, Timeout 2". */
const kindsOf = (text: string) =>
  [...text.matchAll(/^nodejs_active_handles\{type="([^"]+)"[^}]*\} (\d+)/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ');

async function main(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL || !process.env.TEST_AMQP_URL)
    throw new Error('pnpm soak needs TEST_DATABASE_URL and TEST_AMQP_URL (see .ci/run)');
  const report = new Report(
    `soak: ${(DURATION_MS / 60_000).toFixed(1)} min at ${RATE} journeys/s, sampled every ${SAMPLE_MS / 1000} s`,
  );
  const sendgrid = await startSendgridStandIn();
  const openai = await startOpenAiStandIn();
  const cluster = await startCluster({
    vendorEnv: { SENDGRID_API_BASE: sendgrid.url, OPENAI_BASE_URL: openai.url },
    settings: { requireEmailVerification: true, appUrl: 'https://app.example.com' },
    replicas: {},
    // Each sample follows a full collection (SIGUSR2, see gc-on-signal.cjs).
    nodeArgs: ['--expose-gc', '--require', path.join(__dirname, '..', 'harness', 'gc-on-signal.cjs')],
    serviceEnv: { auth: { BCRYPT_COST: '4', AUTH_RATE_LIMIT_PER_IP: '1000000', AUTH_RATE_LIMIT_PER_EMAIL: '1000000' } },
  });
  const dbs = SERVICE_NAMES.map((name) => ({
    name,
    db: createDb({ url: cluster.directDatabaseUrl(name), poolMax: 1 }),
  }));
  const series: Record<string, Series> = {};
  /** Open handles by kind at the end of warm-up and at the end, to tell what grew. */
  const handleKinds: Record<string, { warm?: string; last?: string }> = {};
  const add = (name: string, t: number, value: number) => (series[name] ??= []).push({ t, value });
  try {
    await configureProviders(cluster);
    const load = startLoad(cluster, { rate: RATE, clientTimeoutMs: 15_000 });
    const started = Date.now();
    while (Date.now() - started < DURATION_MS) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      const t = Date.now() - started;
      for (const name of SERVICE_NAMES) cluster.replicas[name][0].signal('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const name of SERVICE_NAMES) {
        const [replica] = cluster.replicas[name];
        const text = await (await fetch(`${replica.url}/metrics`)).text();
        add(`${name} rss MB`, t, metric(text, 'process_resident_memory_bytes') / 2 ** 20);
        add(`${name} heap MB`, t, metric(text, 'nodejs_heap_size_used_bytes') / 2 ** 20);
        add(`${name} handles`, t, metric(text, 'nodejs_active_handles_total'));
        handleKinds[name] ??= {};
        handleKinds[name][t < WARM_UP_MS ? 'warm' : 'last'] = kindsOf(text);
      }
      for (const { name, db } of dbs) {
        const { rows } = await db.raw(
          "select (select count(*) from pg_stat_activity where datname = current_database() and application_name <> '') as connections, (select count(*) from outbox where published_at is null) as backlog",
        );
        add(`${name} db connections`, t, Number(rows[0].connections));
        add(`${name} outbox backlog`, t, Number(rows[0].backlog));
      }
      process.stdout.write(`   ${Math.round(t / 1000)} s: ${load.records.length} requests\n`);
    }
    await load.stop();
    checkRequests(report, load.records, undefined, []);
    for (const [name, points] of Object.entries(series)) {
      const trend = trendOf(judgedAsSampled(name) ? points : floorOf(points, FLOOR_SAMPLES), WARM_UP_MS);
      if (/rss/.test(name) && DURATION_MS < RSS_JUDGED_FROM_MS) {
        report.figure(`${name} (judged in runs of 10 min or more)`, trendLine(name, trend));
        continue;
      }
      const ok = /handles|connections/.test(name)
        ? trend.growth <= Math.max(POOL_STEP, trend.start * GROWTH_LIMIT)
        : /backlog/.test(name)
          ? trend.growth <= Math.max(2, trend.start * GROWTH_LIMIT)
          : trend.relative <= GROWTH_LIMIT;
      report.check(`${name}: no upward trend after warm-up`, ok, trendLine(name, trend));
    }
    for (const [name, kinds] of Object.entries(handleKinds))
      report.figure(`${name} handles by kind`, `after warm-up ${kinds.warm ?? '-'}; at the end ${kinds.last ?? '-'}`);
    report.print(soakChart(series, ['rss MB', 'heap MB', 'handles', 'db connections']));
    mkdirSync(path.dirname(SVG), { recursive: true });
    writeFileSync(SVG, soakChart(series, ['rss MB', 'heap MB', 'handles', 'db connections'], 'svg'));
    report.figure('curves', SVG);
  } catch (error) {
    report.check('soak ran to the end', false, String((error as Error)?.stack ?? error));
  } finally {
    await Promise.all(dbs.map(({ db }) => db.destroy()));
    await cluster.stop();
    await Promise.all([sendgrid.close(), openai.close()]);
  }
  process.stdout.write(`\n${report.failures ? `${report.failures} check(s) failed` : 'all checks passed'}\n`);
  process.exit(report.failures ? 1 : 0);
}

// Exiting kills the service processes started so far (see processes.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

main().catch((error) => {
  process.stderr.write(`${String(error?.stack ?? error)}\n`);
  process.exit(1);
});
