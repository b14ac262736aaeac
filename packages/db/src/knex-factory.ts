import knex, { type Knex } from 'knex';
import pg from 'pg';
import { tracingActive } from '@platform/telemetry';
import { traceQueries } from './query-spans';

// Postgres returns bigint (count) as text by default; counts here always fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** The part of the services' logger knex's own messages go to (a winston logger fits). */
export interface DbLogger {
  warn(message: string, meta?: Record<string, unknown>): unknown;
  error(message: string, meta?: Record<string, unknown>): unknown;
  debug(message: string, meta?: Record<string, unknown>): unknown;
}

export interface DbOptions {
  url: string;
  poolMax?: number;
  /** Name shown in pg_stat_activity, so an operator can tell services apart. */
  applicationName?: string;
  /**
   * Where knex's own messages go (a pooled connection lost, a deprecation). Without one, knex
   * prints them with console.log, outside the JSON log.
   */
  logger?: DbLogger;
}

/** knex hands its logger strings or errors. */
const detailOf = (message: unknown) => ({ detail: message instanceof Error ? message.message : String(message) });

export function createDb(options: DbOptions): Knex {
  const { logger } = options;
  const db = knex({
    client: 'pg',
    connection: { connectionString: options.url, application_name: options.applicationName },
    pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 10_000,
    ...(logger && {
      log: {
        warn: (message: unknown) => logger.warn('knex', detailOf(message)),
        error: (message: unknown) => logger.error('knex', detailOf(message)),
        debug: (message: unknown) => logger.debug('knex', detailOf(message)),
        deprecate: (method: string, alternative: string) =>
          logger.warn('knex deprecation', { detail: `${method} is deprecated; use ${alternative}` }),
      },
    }),
  });
  if (tracingActive()) traceQueries(db, databaseNameOf(options.url));
  return db;
}

/** The same server, another database: postgres://h/a -> postgres://h/b. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Creates a database when it does not exist yet (connecting through the server's `postgres` database). */
export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  if (!SAFE_NAME.test(database)) throw new Error(`unsafe database name: ${database}`);
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      try {
        await client.query(`create database "${database}"`);
      } catch (error) {
        // Another process created it between our check and our create.
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  if (!SAFE_NAME.test(database)) throw new Error(`unsafe database name: ${database}`);
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`drop database if exists "${database}" with (force)`);
  } finally {
    await client.end();
  }
}

/** True when the database answers a trivial query. */
export async function isDatabaseUp(db: Knex): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}

function databaseNameOf(url: string): string | undefined {
  try {
    return new URL(url).pathname.slice(1) || undefined;
  } catch {
    return undefined;
  }
}
