import { performance } from 'node:perf_hooks';
import { takeAtLeast } from './take-at-least';

// Only lower bounds are asserted: they hold on any machine, however loaded.
describe('takeAtLeast', () => {
  it('when the work is quicker than the floor, then the result comes no sooner than the floor', async () => {
    const start = performance.now();
    const overrun = jest.fn();
    expect(await takeAtLeast(60, async () => 'done', overrun)).toBe('done');
    expect(performance.now() - start).toBeGreaterThanOrEqual(60);
    expect(overrun).not.toHaveBeenCalled();
  });

  it('when the work fails, then the error also comes no sooner than the floor', async () => {
    const start = performance.now();
    await expect(
      takeAtLeast(60, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(performance.now() - start).toBeGreaterThanOrEqual(60);
  });

  it('when the work outlasts the floor, then the overrun is reported with its duration', async () => {
    const overrun = jest.fn();
    await takeAtLeast(5, () => new Promise((resolve) => setTimeout(resolve, 30)), overrun);
    expect(overrun).toHaveBeenCalledTimes(1);
    expect(overrun.mock.calls[0][0]).toBeGreaterThan(5);
  });

  it('when the floor is 0, then nothing waits and nothing is reported', async () => {
    const overrun = jest.fn();
    expect(await takeAtLeast(0, async () => 42, overrun)).toBe(42);
    expect(overrun).not.toHaveBeenCalled();
  });
});
