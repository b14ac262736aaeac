import type { Logger } from '@platform/http';
import type { StopFunction } from './service-definition';

export interface RecurringJobOptions {
  /** Names the job in the log line of a failed run ("<name> failed"). */
  name: string;
  intervalMs: number;
  /** Wait before the first run. */
  firstRunMs: number;
  logger: Logger;
  /** One run; it logs what it did itself. */
  run: () => Promise<unknown>;
}

/**
 * A service's periodic background work (purges, refreshes): never two runs at once (a tick
 * while one is still going is skipped), a failed run is logged and the schedule goes on, and
 * the timers do not keep the process alive. The returned stop clears the timers and waits for
 * a run in flight.
 */
export function startRecurringJob(options: RecurringJobOptions): StopFunction {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = options
      .run()
      .then(() => undefined)
      .catch((error: unknown) => {
        options.logger.error(`${options.name} failed`, { error });
      })
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(tick, options.firstRunMs);
  const every = setInterval(tick, options.intervalMs);
  first.unref();
  every.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
