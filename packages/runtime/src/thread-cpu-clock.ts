import { openSync, readSync } from 'node:fs';

/**
 * This thread's CPU time in ms, from /proc/thread-self/schedstat (nanoseconds the thread ran), or
 * undefined where there is no such file. The file is opened once, by the thread that calls this:
 * the clock reads that thread's time wherever it is called from.
 */
export function threadCpuClock(): (() => number) | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const fd = openSync('/proc/thread-self/schedstat', 'r');
    const text = Buffer.alloc(64);
    return () => Number(text.toString('latin1', 0, readSync(fd, text, 0, text.length, 0)).split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}
