/**
 * GET /v1/notifications?userId= on a project holding 1,000,000 notifications, against a
 * bare Express 5 + pg app that runs the same two SQL statements (page and total) with no
 * keys, validation or middleware. Targets (issue 4): >= 70% of the baseline's throughput and
 * p99 < 25 ms at 50 connections.
 *
 * The rows are seeded in bulk (generate_series) into the `bench_notifications` database the
 * first time, and reused on later runs (BENCH_RESEED=1 seeds again). Subject and baseline
 * are measured in alternating rounds (bench/lib/load.ts alternate: BENCH_ROUNDS rounds of
 * BENCH_SECONDS, the best of each side kept). It also prints the EXPLAIN ANALYZE plans at that size.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type ExpressModule from 'express';
import type PgModule from 'pg';
import { createProject, PlatformDirectory, platformMigrations, rotateKeys, SecretBox } from '@platform/directory';
import { createDb, ensureDatabase, migrateLatest, withDatabase } from '@platform/db';
import { InProcessBus, OutboxRelay } from '@platform/events';
import { notificationsService } from '@platform/notifications';
import { allMigrations, assembleService, type ServiceDeps, loadPlatformConfig } from '@platform/runtime';
import { createLogger } from '@platform/http';
import type { Tenant } from '@platform/tenancy';
import { testJwtKeys } from '@platform/testkit';
import { toNotification } from '../services/notifications/src/notifications/notifications.mapper';
import {
  listQueries,
  type NotificationRow,
} from '../services/notifications/src/notifications/notifications.repository';
import { seedNotifications, type SeedShape } from '../services/notifications/test/support/seed';
import { benchDatabaseServer } from './lib/database';
import { listenBare, listenService } from './lib/listen';
import { alternate, compare, formatComparison, runLoad } from './lib/load';

// The baseline's own dependencies, resolved where the workspace installed them.
const express = createRequire(require.resolve('@platform/notifications/package.json'))(
  'express',
) as typeof ExpressModule;
const pg = createRequire(require.resolve('@platform/db/package.json'))('pg') as typeof PgModule;

const SHAPE: SeedShape = { count: 1_000_000, users: 10_000, broadcastEvery: 1_000, readers: 200 };
const USER = 'user-42';
const POOL_SIZE = 10;

type Db = ServiceDeps['db'];

/** The seeded project, reusing the rows of an earlier run when they are all there. */
async function seededTenant(db: Db, platformDb: Db, secrets: SecretBox): Promise<{ tenant: Tenant; seeded: string }> {
  await db.raw(
    'create table if not exists bench_seed (tenant_id uuid not null, project_id uuid not null, count integer not null)',
  );
  const previous = await db('bench_seed').first('tenant_id', 'project_id', 'count');
  const known = previous && (await platformDb('projects').where({ id: previous.project_id }).first('id'));
  if (previous && known && previous.count === SHAPE.count && !process.env.BENCH_RESEED) {
    return {
      tenant: { tenantId: previous.tenant_id, projectId: previous.project_id },
      seeded: 'reused the seeded rows',
    };
  }
  const started = Date.now();
  await db.raw('truncate notifications cascade');
  await db('bench_seed').delete();
  const project = await createProject(platformDb, secrets, {
    tenant: `bench-${randomBytes(4).toString('hex')}`,
    project: 'notifications',
  });
  const tenant = { tenantId: project.tenantId, projectId: project.projectId };
  await seedNotifications(db, tenant, SHAPE);
  await db.raw('vacuum analyze notifications');
  await db.raw('vacuum analyze notification_receipts');
  await db('bench_seed').insert({ tenant_id: tenant.tenantId, project_id: tenant.projectId, count: SHAPE.count });
  return { tenant, seeded: `seeded in ${((Date.now() - started) / 1000).toFixed(0)} s` };
}

/** The bare baseline: the same SQL text and bindings, the user taken from the query string. */
function baselineApp(pool: PgModule.Pool, db: Db, tenant: Tenant): ExpressModule.Express {
  const marker = `\u0000user\u0000`;
  const pageSql = listQueries(db, tenant, { userId: marker, limit: 20, offset: 0 }).page.toSQL().toNative();
  const bind = (values: readonly unknown[], user: string) => values.map((v) => (v === marker ? user : v));
  const app = express();
  app.get('/v1/notifications', async (req, res) => {
    const user = String(req.query.userId);
    const { rows } = await pool.query<NotificationRow & { total: number }>(pageSql.sql, bind(pageSql.bindings, user));
    res.json({
      notifications: rows.map(toNotification),
      total: rows.length ? Number(rows[0].total) : 0,
      limit: 20,
      offset: 0,
    });
  });
  return app;
}

async function plans(pool: PgModule.Pool, db: Db, tenant: Tenant): Promise<string[]> {
  const { page, count } = listQueries(db, tenant, { userId: USER, limit: 20, offset: 0 });
  const lines: string[] = [];
  for (const [name, query] of [
    ['page with total', page],
    ['total alone (a page past the end)', count],
  ] as const) {
    const { sql, bindings } = query.toSQL().toNative();
    const result = await pool.query<Record<string, string>>(
      `explain (analyze, costs off, timing off, summary on) ${sql}`,
      [...bindings],
    );
    const text = result.rows.map((r) => r['QUERY PLAN']);
    lines.push(
      `      plan (${name}):`,
      ...text.filter((l) => /Scan|Execution Time|Append|Join/.test(l)).map((l) => `        ${l.trim()}`),
    );
  }
  return lines;
}

export default async function bench(): Promise<string[]> {
  const server = await benchDatabaseServer();
  await ensureDatabase(server.url, 'bench_notifications');
  await ensureDatabase(server.url, 'bench_notifications_platform');
  const db = createDb({ url: withDatabase(server.url, 'bench_notifications'), poolMax: POOL_SIZE });
  const platformDb = createDb({ url: withDatabase(server.url, 'bench_notifications_platform'), poolMax: 4 });
  const pool = new pg.Pool({ connectionString: withDatabase(server.url, 'bench_notifications'), max: POOL_SIZE });
  const logger = createLogger('notifications', 'silent');
  const bus = new InProcessBus(logger);
  const secrets = new SecretBox(randomBytes(32));
  const servers: { close(): Promise<void> }[] = [];
  try {
    await migrateLatest(platformDb, platformMigrations);
    await migrateLatest(db, allMigrations(notificationsService));
    const { tenant, seeded } = await seededTenant(db, platformDb, secrets);
    const keys = await rotateKeys(platformDb, tenant.projectId);
    const deps: ServiceDeps = {
      service: 'notifications',
      config: loadPlatformConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'error',
        PROJECT_RATE_LIMIT: process.env.PROJECT_RATE_LIMIT,
      }),
      env: process.env,
      logger,
      db,
      platformDb,
      directory: new PlatformDirectory(platformDb, secrets),
      bus,
      relay: new OutboxRelay(db, bus, logger),
      secrets,
      jwt: testJwtKeys(),
    };
    const subject = await listenService(assembleService(notificationsService, deps).app);
    const baseline = await listenBare(baselineApp(pool, db, tenant));
    servers.push(subject, baseline);

    const path = `/v1/notifications?userId=${USER}`;
    const headers = {
      'x-api-key': keys.apiKey,
      'x-secret-key': keys.secretKey,
      'x-tenant-id': tenant.tenantId,
      'x-project-id': tenant.projectId,
    };
    const probe = await fetch(subject.url + path, { headers });
    const body = (await probe.json()) as { total?: number };
    if (probe.status !== 200) throw new Error(`subject answered ${probe.status}: ${JSON.stringify(body)}`);
    const reference = (await (await fetch(baseline.url + path)).json()) as { total?: number };
    if (reference.total !== body.total)
      throw new Error(`baseline total ${reference.total} differs from subject ${body.total}`);

    // Warm both (pools, JIT, caches) before measuring.
    await runLoad({ url: subject.url + path, headers, durationSeconds: 1 });
    await runLoad({ url: baseline.url + path, durationSeconds: 1 });
    const seconds = Number(process.env.BENCH_SECONDS ?? 5);
    const { subject: measured, baseline: bare } = await alternate(
      { url: subject.url + path, headers, connections: 50, durationSeconds: seconds },
      { url: baseline.url + path, connections: 50, durationSeconds: seconds },
    );
    const comparison = compare(
      `GET ${path} (1,000,000 rows, 50 connections, p99 < 25 ms)`,
      measured,
      bare,
      0.7,
      (s) => s.p99Ms < 25,
    );
    return [
      formatComparison(comparison),
      `      data: ${SHAPE.count.toLocaleString('en')} notifications, ${SHAPE.users.toLocaleString('en')} users, 1 in ${SHAPE.broadcastEvery} a broadcast; ${seeded}; ${USER} sees total ${body.total}`,
      ...(await plans(pool, db, tenant)),
    ];
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await pool.end();
    await bus.close();
    await db.destroy();
    await platformDb.destroy();
    await server.stop();
  }
}
