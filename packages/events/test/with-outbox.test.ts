import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { createLogger } from '@platform/http';
import { createTestDatabase, waitFor } from '@platform/testkit';
import { eventMigrations, InProcessBus, OutboxRelay, withOutbox } from '../src';

const logger = createLogger('with-outbox-test', 'silent');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('with_outbox');
  db = createDb({ url: database.url, poolMax: 4 });
  await migrateLatest(db, eventMigrations);
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

/** A relay whose poll never comes within a test, so only a kick can send anything. */
function slowRelay(bus: InProcessBus) {
  const relay = new OutboxRelay(db, bus, logger, { pollIntervalMs: 600_000 });
  const kicks = jest.spyOn(relay, 'kick');
  return { relay, kicks };
}

describe('withOutbox', () => {
  it('when the transaction that wrote an event commits, then the relay sends it at once, not at its next poll', async () => {
    const bus = new InProcessBus(logger);
    const seen: string[] = [];
    await bus.subscribe({ queue: 'q', topics: ['#'], handler: async (e) => void seen.push(e.type) });
    const { relay, kicks } = slowRelay(bus);
    relay.start();
    kicks.mockClear();
    const result = await withOutbox(db, relay, async (_trx, outbox) => {
      await outbox.write({ type: 'note.created', tenantId: 't', projectId: 'p', data: { id: 1 } });
      return 'done';
    });
    expect(result).toBe('done');
    expect(kicks).toHaveBeenCalledTimes(1);
    await waitFor(() => seen.includes('note.created'));
    await relay.stop();
    await bus.close();
  });

  it('when the transaction rolls back or wrote no event, then nothing is kicked and nothing is sent', async () => {
    const bus = new InProcessBus(logger);
    const { relay, kicks } = slowRelay(bus);
    await expect(
      withOutbox(db, relay, async (_trx, outbox) => {
        await outbox.write({ type: 'rolled.back', tenantId: 't', projectId: 'p', data: {} });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await withOutbox(db, relay, async (trx) => trx.raw('select 1'));
    expect(kicks).not.toHaveBeenCalled();
    expect(await db('outbox').where({ type: 'rolled.back' }).count('* as n')).toEqual([{ n: 0 }]);
    await bus.close();
  });
});
