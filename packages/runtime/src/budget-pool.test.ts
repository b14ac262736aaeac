import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '@platform/tenancy';
import { BudgetPool, OverBudgetError } from './budget-pool';
import { BUDGET_THREAD_NICE } from './budget-thread';

/** A thread speaking serveBudgetRequests' protocol: `spin` loops forever, `grow` fills its heap, `busy` works 150 ms, else echoes. */
const THREAD = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, request }) => {
  if (request === 'spin') for (;;);
  if (request === 'grow') { const hold = []; for (;;) hold.push(new Array(100000).fill(hold.length)); }
  if (request === 'busy') { const end = Date.now() + 150; while (Date.now() < end); }
  parentPort.postMessage({ id, ok: true, value: 'echo:' + request });
});
parentPort.postMessage({ ready: true });
`;

const spawn = () => new Worker(THREAD, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 16 } });

/** The same requests served by serveBudgetRequests with `interruptible`; `whoami` answers the thread's id, `nice` its OS priority, `wait` blocks 400 ms without using the CPU. */
const INTERRUPTIBLE_THREAD = `
const { threadId } = require('node:worker_threads');
const { getPriority } = require('node:os');
const { serveBudgetRequests } = require(${JSON.stringify(require.resolve('./budget-thread'))});
serveBudgetRequests((request) => {
  if (request === 'spin') for (;;);
  if (request === 'whoami') return 'thread ' + threadId;
  if (request === 'nice') return String(getPriority());
  if (request === 'wait') { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400); return 'waited'; }
  return 'echo:' + request;
}, { interruptible: true });
`;
const spawnInterruptible = () =>
  new Worker(INTERRUPTIBLE_THREAD, { eval: true, execArgv: ['--require', require.resolve('tsx/cjs')] });
const pools: BudgetPool<string, string>[] = [];
const pool = (
  overrides: {
    budgetMs?: number;
    maxWaitingPerProject?: number;
    threads?: number;
    overruns?: { limit: number; windowMs: number };
    projectMsPerSecond?: number;
    interruptible?: boolean;
  } = {},
) => {
  const created = new BudgetPool<string, string>({
    name: 'test work',
    spawn: overrides.interruptible ? spawnInterruptible : spawn,
    threads: overrides.threads ?? 1,
    budgetMs: overrides.budgetMs ?? 200,
    maxWaitingPerProject: overrides.maxWaitingPerProject ?? 10,
    overruns: overrides.overruns ?? { limit: 100, windowMs: 60_000 },
    projectMsPerSecond: overrides.projectMsPerSecond ?? 100_000,
  });
  pools.push(created);
  return created;
};

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('BudgetPool', () => {
  it('when a request overruns its time, then it fails as over the time budget and the next one is served', async () => {
    const p = pool();
    await expect(p.run('a', 'spin')).rejects.toMatchObject({ limit: 'time' });
    await expect(p.run('a', 'hello')).resolves.toBe('echo:hello');
  });

  it('when a request overruns its time on an interruptible thread, then it fails as over the time budget and the same thread serves the next one', async () => {
    const p = pool({ interruptible: true, overruns: { limit: 2, windowMs: 60_000 } });
    const before = await p.run('a', 'whoami');
    const started = Date.now();
    await expect(p.run('a', 'spin')).rejects.toMatchObject({ limit: 'time' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await expect(p.run('a', 'whoami')).resolves.toBe(before);
    // Still an overrun: the second one uses up the allowance.
    await expect(p.run('a', 'spin')).rejects.toMatchObject({ limit: 'time' });
    await expect(p.run('a', 'hello')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(p.run('b', 'whoami')).resolves.toBe(before);
  });

  it('when a budget thread starts, then it runs below the priority of the threads serving requests (Linux keeps one per thread)', async () => {
    const p = pool({ interruptible: true });
    const main = getPriority();
    const expected = process.platform === 'linux' ? Math.max(BUDGET_THREAD_NICE, main) : main;
    await expect(p.run('a', 'nice')).resolves.toBe(String(expected));
    expect(getPriority()).toBe(main);
  });

  it('when a request exhausts its thread memory, then it fails as over the memory budget', async () => {
    // A budget of time long enough that the heap limit is reached first.
    const p = pool({ budgetMs: 20_000 });
    const error = await p.run('a', 'grow').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverBudgetError);
    expect((error as OverBudgetError).limit).toBe('memory');
    await expect(p.run('a', 'after')).resolves.toBe('echo:after');
  });

  it("when a project's line is full, then its next request gets 429 at once and another project's does not", async () => {
    const p = pool({ maxWaitingPerProject: 2 });
    const running = p.run('a', 'spin').catch(() => 'over');
    const waiting = [p.run('a', 'spin').catch(() => 'over'), p.run('a', 'spin').catch(() => 'over')];
    const refused = await p.run('a', 'x').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('RATE_LIMITED');
    await expect(p.run('b', 'mine')).resolves.toBe('echo:mine');
    await Promise.all([running, ...waiting]);
  });

  it('when projects have requests waiting, then one with nothing running goes first', async () => {
    const p = pool();
    const order: string[] = [];
    const track = (project: string, request: string) =>
      p.run(project, request).then(
        (value) => order.push(value),
        () => order.push(`${project}:over`),
      );
    await Promise.all([track('a', 'spin'), track('a', 'spin'), track('a', 'spin'), track('b', 'b1')]);
    expect(order).toEqual(['a:over', 'echo:b1', 'a:over', 'a:over']);
  });

  it("when a project keeps going over budget, then its requests get 429 at once and another project's are served", async () => {
    const p = pool({ overruns: { limit: 2, windowMs: 60_000 } });
    await expect(p.run('a', 'spin')).rejects.toMatchObject({ limit: 'time' });
    await expect(p.run('a', 'spin')).rejects.toMatchObject({ limit: 'time' });
    const started = Date.now();
    const refused = await p.run('a', 'hello').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(100);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number((refused as AppError).headers?.['Retry-After'])).toBeGreaterThan(0);
    // Named as a repeat offender: the error handler holds the 429 (HeldRefusals).
    expect((refused as AppError).offender).toBe('project a test work');
    await expect(p.run('b', 'mine')).resolves.toBe('echo:mine');
  });

  it('when a project reaches its overrun limit while more of its requests wait, then those get 429 without running', async () => {
    const p = pool({ overruns: { limit: 1, windowMs: 60_000 } });
    const line = [p.run('a', 'spin'), p.run('a', 'hello'), p.run('a', 'hello')].map((run) =>
      run.catch((e: unknown) => e),
    );
    const [overrun, ...waited] = await Promise.all(line);
    expect(overrun).toMatchObject({ limit: 'time' });
    for (const refused of waited) expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    await expect(p.run('b', 'mine')).resolves.toBe('echo:mine');
  });

  it("when a project's requests use up its share of thread time, then its next one gets 429 at once and another project's is served", async () => {
    // A burst of four budgets (800 ms) that refills at 10 ms a second.
    const p = pool({ projectMsPerSecond: 10 });
    for (let i = 0; i < 6; i++) await expect(p.run('a', 'busy')).resolves.toBe('echo:busy');
    const started = Date.now();
    const refused = await p.run('a', 'hello').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(100);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number((refused as AppError).headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect((refused as AppError).offender).toBe('project a test work');
    await expect(p.run('b', 'mine')).resolves.toBe('echo:mine');
  });

  it("when a project's requests take wall time but little CPU, then its share of thread time is charged by the CPU time (Linux)", async () => {
    // A burst of four budgets (2,000 ms) that refills at 1 ms a second; six waits are 2,400 ms of wall
    // time. Each wait leaves 100 ms of its budget for a niced thread to be scheduled on a loaded machine.
    const p = pool({ interruptible: true, budgetMs: 500, projectMsPerSecond: 1 });
    for (let i = 0; i < 6; i++) await expect(p.run('a', 'wait')).resolves.toBe('waited');
    const next = p.run('a', 'hello');
    if (process.platform === 'linux') await expect(next).resolves.toBe('echo:hello');
    else await expect(next).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('when a project has a long line, then it holds one thread and another project gets the other at once', async () => {
    const p = pool({ threads: 2, budgetMs: 1_000 });
    const started = Date.now();
    const line = [p.run('a', 'spin').catch(() => 'over'), p.run('a', 'spin').catch(() => 'over')];
    // Both threads loaded, so the timing below measures waiting, not start-up.
    await expect(p.run('b', 'warm')).resolves.toBe('echo:warm');
    const other = await p.run('b', 'mine');
    expect(other).toBe('echo:mine');
    expect(Date.now() - started).toBeLessThan(900);
    await Promise.all(line);
  });

  it('when closed, then waiting requests fail with 503', async () => {
    const p = pool();
    const running = p.run('a', 'spin').catch((e: unknown) => e);
    const waiting = p.run('a', 'x').catch((e: unknown) => e);
    await p.close();
    expect(await waiting).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await running).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
