import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { createLogger } from '@platform/http';
import { AppError } from '@platform/tenancy';
import { logLines, waitFor } from '@platform/testkit';
import { MAX_WAITING_PER_PROJECT, PatternChecker } from './pattern-checker';
import { spawnCompileWorker, type SpawnCompileWorker } from './pattern-compile-thread';

const NORMAL = { type: 'string', pattern: '^[a-z]+$' };

/** A stand-in thread from source; the real one after the first `misbehaving` spawns. */
function spawning(misbehaving: string, times = 1): SpawnCompileWorker & { count: number } {
  const spawn = Object.assign(
    (workerData: Parameters<SpawnCompileWorker>[0]) => {
      spawn.count += 1;
      if (spawn.count > times) return spawnCompileWorker(workerData);
      return new Worker(`const { parentPort } = require('node:worker_threads');\n${misbehaving}`, {
        eval: true,
        workerData,
      });
    },
    { count: 0 },
  );
  return spawn;
}

const READY = 'parentPort.postMessage({ ready: true });';

async function refusal(pending: Promise<unknown>): Promise<AppError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('PatternChecker', () => {
  let checker: PatternChecker | undefined;
  afterEach(async () => {
    await checker?.close();
    checker = undefined;
  });

  it('when the thread never answers, then the schema is refused at the budget and the next check runs on a fresh thread', async () => {
    const spawn = spawning(`${READY} parentPort.on('message', () => { for (;;) {} });`);
    checker = new PatternChecker({ budgetMs: 50, logger: createLogger('cms', 'silent'), spawn });
    const error = await refusal(checker.check({ properties: { code: NORMAL } }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual([
      { path: 'schema.properties.code.pattern', message: expect.stringMatching(/too complex to compile/) },
    ]);
    await checker.check(NORMAL);
    expect(spawn.count).toBe(2);
  });

  it('when the thread crashes during a check, then the schema is refused, the crash is logged and the service goes on', async () => {
    const { destination, lines } = logLines();
    const spawn = spawning(`${READY} parentPort.on('message', () => { throw new Error('thread bug'); });`);
    checker = new PatternChecker({ budgetMs: 5_000, logger: createLogger('cms', 'error', destination), spawn });
    const error = await refusal(checker.check(NORMAL));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        message: 'pattern compile thread failed during a check',
        error: 'Error: thread bug',
        path: 'schema.pattern',
      }),
    ]);
    await checker.check(NORMAL);
  });

  it('when the thread cannot start, then 503 and the next check starts another', async () => {
    const spawn = spawning(`throw new Error('cannot load');`);
    checker = new PatternChecker({ budgetMs: 5_000, logger: createLogger('cms', 'silent'), spawn });
    expect((await refusal(checker.check(NORMAL))).code).toBe('SERVICE_UNAVAILABLE');
    await checker.check(NORMAL);
    expect(spawn.count).toBe(2);
  });

  it('when several checks arrive while one is stuck, then each waits its turn and is answered', async () => {
    const spawn = spawning(`${READY} parentPort.on('message', () => { for (;;) {} });`);
    checker = new PatternChecker({ budgetMs: 50, logger: createLogger('cms', 'silent'), spawn });
    const outcomes = await Promise.allSettled([checker.check(NORMAL), checker.check(NORMAL), checker.check(NORMAL)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  });

  it("when one project has several slow schemas waiting, then another project's check waits behind two of them at most, not all", async () => {
    // Hangs on patterns containing "slow" (the thread is then replaced), answers the others at once.
    const spawn = spawning(
      `${READY} parentPort.on('message', ({ id, patterns }) => {
        if (patterns.some((p) => p.includes('slow'))) for (;;) {}
        parentPort.postMessage({ done: id });
      });`,
      Infinity,
    );
    checker = new PatternChecker({ budgetMs: 50, logger: createLogger('cms', 'silent'), spawn });
    const slow = { type: 'string', pattern: '^slow$' };
    const answered: string[] = [];
    const track = (name: string, pending: Promise<void>) =>
      pending.then(
        () => answered.push(`${name} ok`),
        () => answered.push(`${name} refused`),
      );
    await Promise.all([
      track('a1', checker.check(slow, 'project-a')),
      track('a2', checker.check(slow, 'project-a')),
      track('a3', checker.check(slow, 'project-a')),
      track('a4', checker.check(slow, 'project-a')),
      track('b1', checker.check(NORMAL, 'project-b')),
    ]);
    // a1 was running and a2 was in line before b1 came; then the projects take turns.
    expect(answered).toEqual(['a1 refused', 'a2 refused', 'b1 ok', 'a3 refused', 'a4 refused']);
  });

  it('when a project already has the most checks waiting, then its next one is refused at once with 429 and others still queue', async () => {
    const spawn = spawning(`${READY} parentPort.on('message', () => { for (;;) {} });`);
    checker = new PatternChecker({ budgetMs: 60_000, logger: createLogger('cms', 'silent'), spawn });
    // The first runs (and hangs); the next MAX_WAITING_PER_PROJECT wait.
    const queued = Array.from({ length: MAX_WAITING_PER_PROJECT + 1 }, () =>
      checker!.check(NORMAL, 'project-a').catch((error: unknown) => error),
    );
    const error = await refusal(checker.check(NORMAL, 'project-a'));
    expect(error.code).toBe('RATE_LIMITED');
    expect(Number(error.headers?.['Retry-After'])).toBeGreaterThan(0);
    const other = checker.check(NORMAL, 'project-b').catch((e: unknown) => e);
    await checker.close();
    // Closing answers everything that waited, the other project's check included.
    for (const outcome of await Promise.all([...queued, other])) {
      expect((outcome as AppError).code).toBe('SERVICE_UNAVAILABLE');
    }
  });

  it('when a schema has no pattern, then no thread is started', async () => {
    const spawn = spawning('', 0);
    checker = new PatternChecker({ budgetMs: 50, logger: createLogger('cms', 'silent'), spawn });
    await checker.check({ type: 'object', properties: { n: { type: 'number' } } });
    expect(spawn.count).toBe(0);
  });

  it('when the checker is closed during a check, then that check and later ones get 503', async () => {
    const spawn = spawning(`${READY} parentPort.on('message', () => { for (;;) {} });`);
    checker = new PatternChecker({ budgetMs: 60_000, logger: createLogger('cms', 'silent'), spawn });
    const pending = checker.check(NORMAL);
    await waitFor(() => checker!.busy, { intervalMs: 1 });
    await checker.close();
    expect((await refusal(pending)).code).toBe('SERVICE_UNAVAILABLE');
    expect((await refusal(checker.check(NORMAL))).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('when a check has run and the checker is never closed, then the process can still exit', () => {
    const script = `
      const { PatternChecker } = require(${JSON.stringify(require.resolve('./pattern-checker'))});
      const checker = new PatternChecker({ budgetMs: 10000, logger: { error() {} } });
      checker.check({ pattern: '^[a-z]+$' }).then(() => console.log('checked'));
    `;
    const child = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
      encoding: 'utf8',
      timeout: 25_000,
    });
    expect({ stdout: child.stdout.trim(), status: child.status, signal: child.signal }).toEqual({
      stdout: 'checked',
      status: 0,
      signal: null,
    });
  }, 30_000);
});
