import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import request from 'supertest';
import { createDb, withDatabase } from '@platform/db';
import { assembleService, type AssembledService, type ServiceDeps, type StopFunction } from '@platform/runtime';
import { createLogger } from '@platform/http';
import {
  startTcpProxy,
  statementsDuring,
  waitFor,
  type ApiClient,
  type TcpProxy,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { llmService, type LlmServiceShared } from '../src';
import { MeterSettler } from '../src/limits/meter-settler';
import { CompletionLogWriter } from '../src/usage/completion-log-writer';
import { insertLogs } from '../src/usage/usage.repository';
import type { CompletionLogEntry } from '../src/usage/usage.types';
import { user } from './support/batch-helpers';
import { configureVendors, llmApi, startLlmTestService, type LlmTestService } from './support/llm-test-service';

const logger = createLogger('llm-test', process.env.TEST_LOG_LEVEL ?? 'silent');

let llm: LlmTestService;
let svc: TestService;
let proxy: TcpProxy;
let proxiedDb: Knex;
/** The service as a replica would run it, its database reached through the proxy. */
let deps: ServiceDeps;
let replica: AssembledService<LlmServiceShared>;
let api: ApiClient;
let scrapeMetrics: () => Promise<string>;
let project: TestProject;
let stopBackground: StopFunction | undefined;

const completion = { model: 'gpt-4o-mini', messages: user('hello') };
const logsPath = (p: TestProject) => `/v1/logs/${p.tenantId}/${p.projectId}?limit=100`;

/** Log ids stored for the project, read past the proxy. */
async function storedIds(ids: string[]): Promise<string[]> {
  const rows = await svc.deps.db('completion_logs').whereIn('id', ids).select('id');
  return rows.map((r: { id: string }) => r.id);
}

beforeAll(async () => {
  // api role: the background work is the webhook deliverer only, so the database traffic is the logs'.
  // Limits off: a completion is admitted under them from the database (or a lease that lives a
  // second at most), and the outage under test is the logs'.
  llm = await startLlmTestService({
    llmEnv: { LLM_ROLE: 'api', LLM_LOG_SHUTDOWN_GRACE_MS: '10000', LLM_GATEWAY_LIMITS: 'false' },
  });
  svc = llm.svc;
  const server = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startTcpProxy(server.hostname, Number(server.port || 5432));
  const { rows } = await svc.deps.db.raw('select current_database() as name');
  const proxied = new URL(withDatabase(server.toString(), rows[0].name));
  proxied.host = `127.0.0.1:${proxy.port}`;
  proxiedDb = createDb({ url: proxied.toString(), poolMax: 4 });
  deps = { ...svc.deps, db: proxiedDb };
  replica = assembleService(llmService, deps);
  const { app } = replica;
  api = llmApi(app);
  scrapeMetrics = async () => (await request(app).get('/metrics')).text;
  const stopJobs = await replica.startJobs();
  // The replica's whole stop: its jobs, then what its build made (the buffered logs are written).
  stopBackground = async () => {
    await stopJobs();
    await replica.close();
  };
  project = await svc.createProject();
  await configureVendors(api, project, ['openai']);
});

afterAll(async () => {
  proxy.restore();
  await stopBackground?.();
  await proxiedDb.destroy();
  await proxy.close();
  await llm.close();
});

describe('completion logs while the database is unreachable', () => {
  it('when completions are made during a database outage, then each one appears in GET /v1/logs exactly once after it comes back', async () => {
    // Warms the key and vendor client caches, which a replica has in steady state.
    const warm = await api.post('/v1/completions', { headers: project.headers, body: completion });
    expect(warm.status).toBe(200);
    await waitFor(async () => (await storedIds([warm.body.id])).length === 1);

    proxy.cut();
    const during: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/v1/completions', { headers: project.headers, body: completion });
      expect(res.status).toBe(200);
      during.push(res.body.id);
    }
    // The writer tries again after the last of them and fails, and still holds every row.
    const writer = replica.parts.shared.logs;
    const failedBefore = writer.failedAttempts;
    await waitFor(() => writer.failedAttempts > failedBefore);
    expect(writer.pending).toBe(5);
    expect(await storedIds(during)).toEqual([]);
    // What an operator sees meanwhile: the rows wait, none is lost.
    const scraped = await scrapeMetrics();
    expect(scraped).toMatch(/^llm_completion_logs_pending\{service="llm"\} 5$/m);
    expect(scraped).toMatch(/^llm_completion_logs_dropped_total\{service="llm"\} 0$/m);

    proxy.restore();
    const logs = await waitFor(
      async () => {
        const res = await api.get(logsPath(project), { headers: project.headers });
        return res.status === 200 && res.body.total === 6 ? res.body.logs : null;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    const ids = logs.map((log: { id: string }) => log.id);
    expect([...ids].sort()).toEqual([warm.body.id, ...during].sort());
    expect(writer.pending).toBe(0);
    expect(writer.droppedTotal).toBe(0);
  });

  it('when the service stops while the database is away and it returns within the grace, then the stop writes the buffered logs', async () => {
    proxy.cut();
    const during: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/v1/completions', { headers: project.headers, body: completion });
      expect(res.status).toBe(200);
      during.push(res.body.id);
    }
    const logs = replica.parts.shared.logs;
    const failedBefore = logs.failedAttempts;
    const stopping = stopBackground!();
    stopBackground = undefined;
    // The stop's write fails and it keeps the rows for its next try within the grace.
    await waitFor(() => logs.failedAttempts > failedBefore);
    expect(logs.pending).toBe(3);

    proxy.restore();
    await stopping;
    expect(logs.pending).toBe(0);
    expect((await storedIds(during)).sort()).toEqual([...during].sort());
  });
});

describe('completion log writer and meter settler bounds', () => {
  const entry = (model = 'gpt-4o'): CompletionLogEntry => ({
    id: randomUUID(),
    model,
    provider: 'openai',
    status: 'success',
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    latencyMs: 5,
    error: null,
    batchId: null,
    createdAt: new Date(),
  });

  it('when more logs wait than the buffer holds, then the oldest are dropped and counted, and the newest are written when the database returns', async () => {
    const writer = new CompletionLogWriter(proxiedDb, logger, { flushMs: 5, maxBuffered: 3, retryMaxMs: 100 });
    proxy.cut();
    const entries = Array.from({ length: 5 }, () => entry());
    for (const e of entries) writer.write(project, e);
    await waitFor(() => writer.failedAttempts > 0);
    expect(writer.pending).toBe(3);
    expect(writer.droppedTotal).toBe(2);

    proxy.restore();
    await waitFor(() => writer.pending === 0, { timeoutMs: 10_000 });
    const ids = entries.map((e) => e.id);
    expect((await storedIds(ids)).sort()).toEqual(ids.slice(2).sort());
  });

  it('when the writer backs off after a failed insert, then a read catching up does not try again before the backoff ends', async () => {
    const writer = new CompletionLogWriter(proxiedDb, logger, {
      flushMs: 5,
      maxBuffered: 100,
      retryMinMs: 60_000,
      retryMaxMs: 60_000,
    });
    const row = entry();
    proxy.cut();
    writer.write(project, row);
    await writer.flush();
    expect(writer.pending).toBe(1);
    proxy.restore();

    expect(await statementsDuring(proxiedDb, () => writer.catchUp(project))).toEqual([]);
    expect(writer.pending).toBe(1);

    await writer.flush();
    expect(writer.pending).toBe(0);
    expect(await storedIds([row.id])).toEqual([row.id]);
  });

  it('when a meter settlement failed, then a read catching up leaves it to its retry', async () => {
    const meters = new MeterSettler(proxiedDb, logger, 60_000);
    proxy.cut();
    meters.add(project, { spentUsd: 0.5, releasedUsd: 0, tokens: 3 });
    await meters.flush();
    proxy.restore();

    expect(await statementsDuring(proxiedDb, () => meters.catchUp(project))).toEqual([]);
    // The settlement is still held, and written by the next attempt.
    const retried = await statementsDuring(proxiedDb, () => meters.flush());
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatch(/^update "project_limits"/);
  });

  it('when a retried group holds a row stored by an earlier attempt whose reply was lost, then it stays one row and the rest is written', async () => {
    const writer = new CompletionLogWriter(svc.deps.db, logger, { flushMs: 5, maxBuffered: 100 });
    const [stored, fresh] = [entry(), entry()];
    await insertLogs(svc.deps.db, project, [stored]);
    writer.write(project, stored);
    writer.write(project, fresh);
    await writer.flush();
    expect(writer.pending).toBe(0);
    expect(writer.droppedTotal).toBe(0);
    const rows = await svc.deps.db('completion_logs').whereIn('id', [stored.id, fresh.id]).select('id');
    expect(rows.map((r: { id: string }) => r.id).sort()).toEqual([stored.id, fresh.id].sort());
  });

  it('when Postgres refuses one row (a NUL character), then that row alone is dropped and the rest of its group is written', async () => {
    const writer = new CompletionLogWriter(svc.deps.db, logger, { flushMs: 5, maxBuffered: 100 });
    const good = [entry(), entry()];
    const bad = entry('gpt-4o\u0000');
    writer.write(project, good[0]);
    writer.write(project, bad);
    writer.write(project, good[1]);
    await writer.flush();
    expect(writer.pending).toBe(0);
    expect(writer.droppedTotal).toBe(1);
    expect((await storedIds([...good, bad].map((e) => e.id))).sort()).toEqual(good.map((e) => e.id).sort());
  });
});
