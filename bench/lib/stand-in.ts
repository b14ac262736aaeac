import { spawn, type ChildProcess } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs a vendor stand-in (a script that listens on port 0 and prints its port) in a child
 * process, so that it does not share the service's event loop.
 */
export async function startStandIn(script: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Also when the bench fails before its cleanup, so no stand-in outlives the bench.
  process.once('exit', () => child.kill());
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`stand-in exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** A full garbage collection, so that memory before and after compares live data only. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
