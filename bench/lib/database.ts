import path from 'node:path';
import { startEmbeddedPostgres } from '@platform/db';

/**
 * The Postgres server benchmarks use: BENCH_DATABASE_URL / TEST_DATABASE_URL, or an embedded one.
 * An embedded server is TEST_DATABASE_URL (the services' test helpers read it) until it stops, so
 * the next benchmark of the same run starts its own instead of reaching for a stopped one.
 */
export async function benchDatabaseServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) return { url, stop: async () => undefined };
  const embedded = await startEmbeddedPostgres(
    path.resolve(__dirname, '../../.data/bench-postgres'),
    Number(process.env.BENCH_PG_PORT ?? 54349),
  );
  process.env.TEST_DATABASE_URL = embedded.url;
  return {
    url: embedded.url,
    stop: async () => {
      delete process.env.TEST_DATABASE_URL;
      await embedded.stop();
    },
  };
}
