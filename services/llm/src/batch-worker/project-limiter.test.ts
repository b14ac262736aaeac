import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { allMigrations } from '@platform/runtime';
import { createLogger } from '@platform/http';
import { type Tenant } from '@platform/tenancy';
import { createTestDatabase, startTcpProxy, waitFor } from '@platform/testkit';
import { llmService } from '..';
import { ProjectLimiter, type ProjectLimiterOptions, type Release } from './project-limiter';

const logger = createLogger('llm-test', process.env.TEST_LOG_LEVEL ?? 'silent');

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
const limiters: ProjectLimiter[] = [];

/** One worker process's limiter. */
function limiter(options: Partial<ProjectLimiterOptions> = {}): ProjectLimiter {
  const created = new ProjectLimiter(db, logger, {
    perProject: 3,
    leaseMs: 10_000,
    renewMs: 100,
    pollMs: 20,
    lingerMs: 20,
    ...options,
  });
  created.start();
  limiters.push(created);
  return created;
}

const newTenant = (): Tenant => ({ tenantId: randomUUID(), projectId: randomUUID() });

/** Whether `pending` has resolved within `ms`. */
async function settledWithin(pending: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([pending.then(() => true), late]);
  clearTimeout(timer);
  return settled;
}

beforeAll(async () => {
  database = await createTestDatabase('llm_limiter');
  db = createDb({ url: database.url, poolMax: 4 });
  await migrateLatest(db, allMigrations(llmService));
});

afterAll(async () => {
  for (const l of limiters) l.abandon();
  await db.destroy();
  await database.drop();
});

describe('project concurrency across processes', () => {
  it('when two processes share a project, then together they hold at most the limit, and a slot one gives back goes to the other', async () => {
    const tenant = newTenant();
    const [a, b] = [limiter(), limiter()];
    const held = (await Promise.all([a.acquire(tenant), a.acquire(tenant), a.acquire(tenant)])) as Release[];
    expect(held.every(Boolean)).toBe(true);

    const waiting = b.acquire(tenant);
    expect(await settledWithin(waiting, 150)).toBe(false);
    const rows = await db('batch_concurrency_slots').where({ project_id: tenant.projectId });
    expect(rows).toHaveLength(3);

    held[0]();
    expect(await settledWithin(waiting, 2_000)).toBe(true);
    expect(await waiting).toEqual(expect.any(Function));
    // a now holds two; its next call waits, since b has the third.
    expect(await settledWithin(a.acquire(tenant), 150)).toBe(false);
  });

  it('when a busy process keeps taking its slots again, then it keeps them past the linger time', async () => {
    const tenant = newTenant();
    const busy = limiter({ lingerMs: 40, renewMs: 60_000 });
    const steady = (await busy.acquire(tenant)) as Release;
    let spare = (await busy.acquire(tenant)) as Release;
    // A row's xmin changes when it is given back and leased again (renewals are off here).
    const leases = async () =>
      (await db('batch_concurrency_slots').where({ project_id: tenant.projectId }).select(db.raw('slot, xmin::text')))
        .map((row: { slot: number; xmin: string }) => `${row.slot}@${row.xmin}`)
        .sort();
    const before = await leases();
    expect(before).toHaveLength(2);
    // The spare slot is given back and taken again every 10 ms: never unused for 40 ms in a row.
    for (let i = 0; i < 15; i++) {
      spare();
      await new Promise((resolve) => setTimeout(resolve, 10));
      spare = (await busy.acquire(tenant)) as Release;
    }
    expect(await leases()).toEqual(before);
    spare();
    steady();
  });

  it('when one process holds every slot of a project, then another project is not held up', async () => {
    const [busy, other] = [newTenant(), newTenant()];
    const a = limiter();
    await Promise.all([a.acquire(busy), a.acquire(busy), a.acquire(busy)]);
    expect(await settledWithin(limiter().acquire(other), 1_000)).toBe(true);
  });

  it('when a process is killed holding slots, then they come back once its lease runs out', async () => {
    const tenant = newTenant();
    const victim = limiter({ leaseMs: 400 });
    await Promise.all([victim.acquire(tenant), victim.acquire(tenant), victim.acquire(tenant)]);
    victim.abandon();
    const started = Date.now();
    const next = limiter();
    await waitFor(() => next.acquire(tenant), { timeoutMs: 5_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('when a process loses the database past its lease, then it starts no new call until a renewal says which slots are still its own', async () => {
    const tenant = newTenant();
    const target = new URL(database.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(database.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const cutDb = createDb({ url: proxied.toString(), poolMax: 2 });
    // Keeps an unused slot (long linger) for its next call, as a busy worker does.
    const cutOff = new ProjectLimiter(cutDb, logger, {
      perProject: 3,
      leaseMs: 500,
      renewMs: 100,
      pollMs: 20,
      lingerMs: 60_000,
    });
    cutOff.start();
    try {
      const running = (await Promise.all([
        cutOff.acquire(tenant),
        cutOff.acquire(tenant),
        cutOff.acquire(tenant),
      ])) as Release[];
      running[0]();
      proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 800));
      // Its leases have run out: another process takes all three slots.
      const other = limiter();
      const taken = (await Promise.all([
        other.acquire(tenant),
        other.acquire(tenant),
        other.acquire(tenant),
      ])) as Release[];
      // The cut-off process still counts a free slot, but may not use it: that would be a fourth call.
      const next = cutOff.acquire(tenant);
      expect(await settledWithin(next, 500)).toBe(false);
      // Back online, its renewal finds the slots gone. Its two calls finish; it gets a slot once
      // the other process gives one back.
      proxy.restore();
      running[1]();
      running[2]();
      expect(await settledWithin(next, 500)).toBe(false);
      taken[0]();
      expect(await settledWithin(next, 5_000)).toBe(true);
    } finally {
      cutOff.abandon();
      proxy.restore();
      await cutDb.destroy();
      await proxy.close();
    }
  });

  it('when a process stops cleanly, then its slots are free at once', async () => {
    const tenant = newTenant();
    const stopping = limiter();
    await Promise.all([stopping.acquire(tenant), stopping.acquire(tenant), stopping.acquire(tenant)]);
    await stopping.releaseAll();
    const next = limiter();
    expect(
      await settledWithin(Promise.all([next.acquire(tenant), next.acquire(tenant), next.acquire(tenant)]), 500),
    ).toBe(true);
  });

  it('when a waiting call is aborted or the limiter closes, then it gets null instead of a slot', async () => {
    const tenant = newTenant();
    const a = limiter({ perProject: 1 });
    await a.acquire(tenant);
    const controller = new AbortController();
    const aborted = a.acquire(tenant, controller.signal);
    controller.abort();
    expect(await aborted).toBeNull();
    const closing = a.acquire(tenant);
    a.close();
    expect(await closing).toBeNull();
  });
});
