import { performance } from 'node:perf_hooks';

/**
 * Runs `work` and settles (with its result or its error) no sooner than `floorMs` after the
 * call. When the work alone took longer, the floor hid nothing: `onOverrun` hears of it.
 */
export async function takeAtLeast<T>(
  floorMs: number,
  work: () => Promise<T>,
  onOverrun?: (elapsedMs: number) => void,
): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    const elapsedMs = performance.now() - start;
    if (floorMs > 0 && elapsedMs > floorMs) onOverrun?.(elapsedMs);
    await sleepUntil(start + floorMs);
  }
}

/** A timer may fire a little early by the monotonic clock, so wait again for any remainder. */
async function sleepUntil(deadline: number): Promise<void> {
  for (let left = deadline - performance.now(); left > 0; left = deadline - performance.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
  }
}
