import type { Client } from 'pg';
import { createLogger } from '@platform/http';
import { createTestDatabase, logLines, startTcpProxy, waitFor } from '@platform/testkit';
import { createDb } from '../src';

describe('knex messages', () => {
  it('when a pooled connection was lost, then knex reports it in the JSON log, not on the console', async () => {
    const database = await createTestDatabase('knex_log');
    const target = new URL(database.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(database.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const { destination, lines } = logLines();
    const db = createDb({ url: proxied.toString(), poolMax: 1, logger: createLogger('db-test', 'debug', destination) });
    const printed = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      // A connection idles in the pool; the test hears when its socket ends, as knex does.
      const pooled: Client = await db.client.acquireConnection();
      const ended = new Promise((resolve) => pooled.once('end', resolve));
      await db.client.releaseConnection(pooled);
      proxy.cut();
      await ended;
      proxy.restore();
      // knex finds the pooled connection dead, says so, and opens a new one.
      await waitFor(() => db.raw('select 1'));
      const entry = JSON.parse(lines.find((line) => JSON.parse(line).message === 'knex')!);
      expect(entry).toMatchObject({ level: 'warn', service: 'db-test', detail: expect.stringMatching(/connection/i) });
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
      proxy.restore();
      await db.destroy();
      await proxy.close();
      await database.drop();
    }
  });

  it('when a query fails on a value that is a token, a password or a key, then no log line of the error contains it', async () => {
    const database = await createTestDatabase('knex_err_log');
    const { destination, lines } = logLines();
    const logger = createLogger('db-test', 'debug', destination);
    const db = createDb({ url: database.url, poolMax: 1, logger });
    const secrets = [
      'rt_3f9a8b7c6d5e4f3a2b1c',
      'https://app.example.com/reset-password?token=Zx81mQp0aLk29sd',
      'sk-proj-AbCdEf0123456789',
      'correct horse battery staple',
    ];
    try {
      await db.schema.createTable('sessions', (t) => {
        t.text('token').primary();
      });
      for (const secret of secrets) {
        // Postgres quotes the value it refuses: in the message (a cast) and in the detail (a duplicate).
        const cast = await db.raw('select ?::int', [secret]).catch((error: unknown) => error);
        await db('sessions').insert({ token: secret });
        const duplicate = await db('sessions')
          .insert({ token: secret })
          .catch((error: unknown) => error);
        logger.error('request failed', { err: cast });
        logger.error('request failed', { error: String(duplicate), detail: (duplicate as { detail?: string }).detail });
        logger.warn(`event publish failed: ${String(cast)}`);
      }
      expect(lines.length).toBe(secrets.length * 3);
      expect(lines.some((line) => line.includes('invalid input syntax for type integer'))).toBe(true);
      for (const secret of secrets) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
