import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface ServiceWorkerOptions {
  /** `__filename` of the module that starts the thread. */
  callerFile: string;
  /** The thread's TypeScript source, relative to the caller's folder. */
  source: string;
  /** The bundled thread, relative to the image's dist/ (where the caller is bundled into main.js). */
  bundled: string;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
}

/**
 * Starts a service's worker thread: its TypeScript source through tsx's loader when the caller
 * runs as source (tsx, jest), else the file `build` bundled beside dist/main.js. tsx is
 * resolved through createRequire so that the bundler does not take it for a production dependency.
 */
export function spawnServiceWorker(options: ServiceWorkerOptions): Worker {
  const { callerFile, workerData, resourceLimits } = options;
  const dir = path.dirname(callerFile);
  return callerFile.endsWith('.ts')
    ? new Worker(path.join(dir, options.source), {
        workerData,
        resourceLimits,
        execArgv: ['--require', createRequire(callerFile).resolve('tsx/cjs')],
      })
    : new Worker(path.join(dir, options.bundled), { workerData, resourceLimits });
}
