import { createLogger } from '@platform/tenancy';
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
      await db.raw('select 1'); // a connection now idles in the pool
      proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 200));
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
});
