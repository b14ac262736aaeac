import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePortBlock, waitFor } from '@platform/testkit';

export interface StartedPlatform {
  consoleUrl: string;
  serviceUrl(service: 'auth' | 'billing' | 'cms' | 'llm' | 'mailer' | 'notifications'): string;
  stop(): Promise<void>;
}

const SERVICE_OFFSETS = { auth: 1, billing: 2, cms: 3, llm: 4, mailer: 5, notifications: 6 } as const;

/**
 * `pnpm start` as a newcomer runs it: embedded PostgreSQL in a fresh data folder, the in-process
 * bus, no mail provider; ports shifted so it runs beside another copy.
 */
export async function startPlatform(env: Record<string, string> = {}): Promise<StartedPlatform> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'console-e2e-'));
  // Free ports now, not ones derived from the pid: a jest worker runs several of these files in
  // turn, and the previous platform's database may still be letting go of its port.
  const offset = await freePortBlock([4000, ...Object.values(SERVICE_OFFSETS).map((o) => 4000 + o)], 700, 1700);
  const postgresPort = await freePortBlock([0], 56000, 57000);
  const root = path.resolve(__dirname, '../..');
  const output: string[] = [];
  const inherited = { ...process.env };
  // Embedded defaults: no external database, broker or cache.
  for (const name of ['DATABASE_URL', 'PLATFORM_DATABASE_URL', 'AMQP_URL', 'REDIS_URL']) delete inherited[name];
  const child: ChildProcess = spawn(path.join(root, 'node_modules/.bin/tsx'), ['scripts/start-all.ts'], {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      START_PORT_OFFSET: String(offset),
      EMBEDDED_PG_PORT: String(postgresPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const consoleUrl = `http://localhost:${4000 + offset}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the platform exited:\n${output.join('')}`);
        const page = await fetch(`${consoleUrl}/`, { headers: { accept: 'text/html' } }).catch(() => undefined);
        return page?.ok === true;
      },
      { timeoutMs: 180_000, intervalMs: 500 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    consoleUrl,
    serviceUrl: (service) => `http://localhost:${4000 + offset + SERVICE_OFFSETS[service]}/v1`,
    stop,
  };

  /** SIGTERM first: tsx passes it on to the platform, which stops its services and database; a SIGKILL would orphan them. */
  async function stop(): Promise<void> {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    child.stdout?.destroy();
    child.stderr?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
