import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Service processes still running: killed if the harness exits first (Ctrl-C, a CI timeout), so none outlives it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Below Linux's ephemeral range (32768-60999), where nothing that binds port 0 lands. */
const PORTS = { from: 20_000, to: 32_000 };

/**
 * A free port for a service process to listen on. Not an ephemeral one: between this check and
 * the child's listen, another test's server bound to port 0 could take it and answer the
 * readiness probe in the child's place (every one of our apps has /readyz).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORTS.from + Math.floor(Math.random() * (PORTS.to - PORTS.from));
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
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
  options: {
    bundled?: boolean;
    startTimeoutMs?: number;
    nodeArgs?: string[];
    /** Another checkout of the repository (with its node_modules) to start the service from. */
    root?: string;
  } = {},
): Promise<ServiceProcess> {
  const root = options.root ?? ROOT;
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...(options.bundled
        ? ['--enable-source-maps', path.join(root, 'services', name, 'dist', 'main.js')]
        : ['--import', 'tsx', path.join(root, 'services', name, 'src', 'main.ts')]),
    ],
    {
      cwd: root,
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
