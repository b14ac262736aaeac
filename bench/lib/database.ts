import path from 'node:path';
import { startEmbeddedPostgres } from '@platform/db';

/** The Postgres server benchmarks use: BENCH_DATABASE_URL / TEST_DATABASE_URL, or an embedded one. */
export async function benchDatabaseServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) return { url, stop: async () => undefined };
  return startEmbeddedPostgres(
    path.resolve(__dirname, '../../.data/bench-postgres'),
    Number(process.env.BENCH_PG_PORT ?? 54349),
  );
}
