import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Root-owned (0755) home for what the `postgres` OS user must reach when the checkout lives in
 * a directory it cannot enter (`/root`, any 0700 directory): a copy of the binaries, and the data.
 */
export const REACHABLE_HOME = '/var/lib/platform-embedded-postgres';

/** A first-run problem with one plain sentence of what to do, printed without a stack. */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

interface Ids {
  uid: number;
  gid: number;
}

/** The `postgres` OS user, created as embedded-postgres would when it is missing. */
async function postgresUser(): Promise<Ids> {
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout),
  });
  try {
    return await ids();
  } catch {
    try {
      await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
      await run('useradd', ['--system', '-g', 'postgres', 'postgres']);
      return await ids();
    } catch {
      throw new EmbeddedPostgresError(
        'PostgreSQL cannot run as root and no `postgres` OS user could be created: create one (useradd postgres), ' +
          'run `pnpm start` as another user, or set DATABASE_URL and PLATFORM_DATABASE_URL to a PostgreSQL server.',
      );
    }
  }
}

/** Whether `postgres` may use `target` (`-x`: execute a file, or enter a directory and all above it). */
const reachable = (ids: Ids, target: string) => spawnSync('test', ['-x', target], ids).status === 0;

/** The native package's directory (bin, lib, share), copied where `postgres` can execute it if need be. */
async function reachableBinaries(ids: Ids, nativeDir: string): Promise<string> {
  if (reachable(ids, path.join(nativeDir, 'bin', 'postgres'))) return nativeDir;
  const copy = path.join(REACHABLE_HOME, 'bin', hashOf(nativeDir));
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    await mkdir(path.dirname(copy), { recursive: true, mode: 0o755 });
    await chmod(REACHABLE_HOME, 0o755);
    await chmod(path.dirname(copy), 0o755);
    const partial = `${copy}.partial-${process.pid}`;
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rm(copy, { recursive: true, force: true });
    await run('mv', [partial, copy]);
  }
  return copy;
}

/** The data directory itself when `postgres` can reach it; otherwise one of its own, per checkout. */
async function reachableDataDir(ids: Ids, databaseDir: string): Promise<string> {
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const dir = reachable(ids, path.dirname(databaseDir))
    ? databaseDir
    : path.join(REACHABLE_HOME, 'data', hashOf(databaseDir));
  await mkdir(dir, { recursive: true });
  await chmod(path.dirname(dir), 0o755).catch(() => undefined);
  await chown(dir, ids.uid, ids.gid);
  await chmod(dir, 0o700);
  return dir;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function runAs(ids: Ids, command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const child = spawn(command, args, { ...ids, env: { ...process.env, LC_MESSAGES: 'C' } });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed: ${stderr.trim()}`)),
    );
  });
}

export interface RootServer {
  dataDir: string;
  start(): Promise<{ stop(): Promise<void> }>;
}

/**
 * Postgres refuses to run as root, so root runs it as the `postgres` OS user, from binaries and
 * a data directory that user can reach (copied or placed under REACHABLE_HOME when the checkout
 * is in a directory it cannot enter).
 */
export async function prepareAsRoot(
  databaseDir: string,
  nativeDir: string,
  port: number,
  credentials: { user: string; password: string },
): Promise<RootServer> {
  const ids = await postgresUser();
  const binaries = await reachableBinaries(ids, nativeDir);
  const dataDir = await reachableDataDir(ids, databaseDir);
  const bin = (name: string) => path.join(binaries, 'bin', name);
  return {
    dataDir,
    async start() {
      if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
        const passwordFile = path.join(path.dirname(dataDir), `.pw-${process.pid}`);
        await writeFile(passwordFile, `${credentials.password}\n`, { mode: 0o600 });
        await chown(passwordFile, ids.uid, ids.gid);
        try {
          await runAs(ids, bin('initdb'), [
            `--pgdata=${dataDir}`,
            '--auth=password',
            `--username=${credentials.user}`,
            `--pwfile=${passwordFile}`,
          ]);
        } finally {
          await rm(passwordFile, { force: true });
        }
      }
      const server: ChildProcess = spawn(bin('postgres'), ['-D', dataDir, '-p', String(port)], {
        ...ids,
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
      await new Promise<void>((resolve, reject) => {
        let stderr = '';
        server.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('database system is ready to accept connections')) resolve();
        });
        server.on('error', reject);
        server.on('close', () => reject(new Error(`postgres exited: ${stderr.trim().slice(-500)}`)));
      });
      return {
        stop: () =>
          new Promise<void>((resolve) => {
            if (server.exitCode !== null) return resolve();
            server.on('exit', () => resolve());
            server.kill('SIGINT');
          }),
      };
    },
  };
}
