import type { Knex } from 'knex';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

interface PooledClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

/**
 * The first row of a named prepared statement, run on a connection of `db`'s pool (or on the
 * transaction's connection when `db` is a transaction). For the hottest reads only (every
 * GET /me): Postgres parses and plans the statement once per connection and knex's query
 * builder is skipped (docs/performance.md; `pnpm bench auth` covers it).
 */
export async function preparedFirst<Row extends object>(
  db: Knex,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row | null> {
  const client = db.client as unknown as PooledClient;
  const connection = await client.acquireConnection();
  try {
    return ((await connection.query({ name, text, values })).rows[0] as Row | undefined) ?? null;
  } finally {
    await client.releaseConnection(connection);
  }
}
