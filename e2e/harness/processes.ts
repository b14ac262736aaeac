import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const ROOT = path.resolve(__dirname, '../..');

/** Service processes still running: killed if the harness exits first (Ctrl-C, a CI timeout), so none outlives it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ServiceProcess {
  name: string;
  url: string;
  pid: number;
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has gone. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL if it has not gone after 15 s. */
  stop(): Promise<void>;
  /** Sends a signal without waiting (kill -9 is `signal('SIGKILL')`). */
  signal(signal: NodeJS.Signals): void;
}

/**
 * Bundles each service as its image does (`services/<name>/dist/main.js`): a bundled process
 * starts in a fraction of the time tsx needs, which the fault suite's replacements rely on.
 */
export async function bundleServices(names: readonly string[]): Promise<void> {
  await Promise.all(
    names.map((name) =>
      promisify(execFile)(process.execPath, [
        path.join(ROOT, 'infra', 'docker', 'bundle.mjs'),
        path.join(ROOT, 'services', name),
        'src/main.ts',
      ]),
    ),
  );
}

/**
 * Starts `services/<name>/src/main.ts` as its own process, the way it is deployed (`bundled`:
 * the bundle `bundleServices` made, as the image runs it).
 */
export async function startServiceProcess(
  name: string,
  env: Record<string, string>,
  options: { bundled?: boolean; startTimeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...(options.bundled
        ? ['--enable-source-maps', path.join(ROOT, 'services', name, 'dist', 'main.js')]
        : ['--import', 'tsx', path.join(ROOT, 'services', name, 'src', 'main.ts')]),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = `http://127.0.0.1:${port}`;
  // Generous by default: a cold tsx start on a loaded two-core machine has taken over 30 s.
  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited during start-up:\n${output}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name,
    url,
    pid: child.pid!,
    output: () => output,
    exited,
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}
