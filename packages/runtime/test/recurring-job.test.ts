import { createLogger } from '@platform/http';
import { logLines, waitFor } from '@platform/testkit';
import { startRecurringJob } from '../src';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startRecurringJob', () => {
  it('when a run outlasts the interval, then the ticks meanwhile are skipped, never two runs at once', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const stop = startRecurringJob({
      name: 'slow job',
      intervalMs: 5,
      firstRunMs: 0,
      logger: createLogger('test', 'silent'),
      run: async () => {
        runs++;
        most = Math.max(most, ++active);
        await sleep(40);
        active--;
      },
    });
    await waitFor(() => runs >= 3, { intervalMs: 5 });
    await stop();
    expect(most).toBe(1);
  });

  it('when a run fails, then it is logged under the job name and the next run still happens', async () => {
    const { destination, lines } = logLines();
    let runs = 0;
    const stop = startRecurringJob({
      name: 'flaky job',
      intervalMs: 10,
      firstRunMs: 0,
      logger: createLogger('test', 'error', destination),
      run: async () => {
        if (++runs === 1) throw new Error('first run breaks');
      },
    });
    await waitFor(() => runs >= 2, { intervalMs: 5 });
    await stop();
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', message: 'flaky job failed' });
  });

  it('when stopped during a run, then stop waits for that run and no further run starts', async () => {
    // On a fake clock: "no further run" is checked over a hundred intervals, without waiting for them.
    jest.useFakeTimers();
    try {
      let finished = false;
      let runs = 0;
      const stop = startRecurringJob({
        name: 'job',
        intervalMs: 10,
        firstRunMs: 0,
        logger: createLogger('test', 'silent'),
        run: async () => {
          runs++;
          await sleep(50);
          finished = true;
        },
      });
      await jest.advanceTimersByTimeAsync(0);
      expect(runs).toBe(1);
      const stopped = stop();
      await jest.advanceTimersByTimeAsync(50);
      await stopped;
      expect(finished).toBe(true);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(runs).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
