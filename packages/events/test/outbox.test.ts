import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { createLogger } from '@platform/http';
import { createTestDatabase, statementsDuring, waitFor } from '@platform/testkit';
import {
  AUTH_EVENTS,
  eventMigrations,
  InProcessBus,
  OutboxRelay,
  writeEvent,
  type EventBus,
  type EventEnvelope,
} from '../src';

const logger = createLogger('outbox-test', 'silent');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('outbox');
  db = createDb({ url: database.url, poolMax: 4 });
  await migrateLatest(db, eventMigrations);
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('transactional outbox', () => {
  it('when the transaction that wrote an event rolls back, then the event is never published', async () => {
    const bus = new InProcessBus(logger);
    const seen: string[] = [];
    await bus.subscribe({ queue: 'q', topics: ['#'], handler: async (e) => void seen.push(e.type) });
    const relay = new OutboxRelay(db, bus, logger, { pollIntervalMs: 20 });
    relay.start();
    await expect(
      db.transaction(async (trx) => {
        await writeEvent(trx, { type: 'rolled.back', tenantId: 't', projectId: 'p', data: {} });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await db.transaction((trx) => writeEvent(trx, { type: 'committed', tenantId: 't', projectId: 'p', data: {} }));
    relay.kick();
    await waitFor(() => seen.includes('committed'));
    await relay.stop();
    expect(seen).toEqual(['committed']);
    await bus.close();
  });

  it('when two relays run at once, then every event is published exactly once', async () => {
    const published: string[] = [];
    const slowBus: EventBus = {
      publish: async (e: EventEnvelope) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        published.push(e.id);
      },
      subscribe: async () => undefined,
      status: () => 'up',
      close: async () => undefined,
    };
    const ids: string[] = [];
    await db.transaction(async (trx) => {
      for (let i = 0; i < 150; i++)
        ids.push((await writeEvent(trx, { type: 'many', tenantId: 't', projectId: 'p', data: { i } })).id);
    });
    const relays = [
      new OutboxRelay(db, slowBus, logger, { batchSize: 20 }),
      new OutboxRelay(db, slowBus, logger, { batchSize: 20 }),
    ];
    await Promise.all(relays.map((r) => r.relayAll()));
    const mine = published.filter((id) => ids.includes(id));
    expect(mine.sort()).toEqual([...ids].sort());
  });

  it('when nothing is due, then a relay pass opens no transaction', async () => {
    const relay = new OutboxRelay(db, new InProcessBus(logger), logger);
    await relay.relayAll(); // what earlier tests left due
    const statements = await statementsDuring(db, () => relay.relayAll());
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^select 1 from "outbox"/);
  });

  it('when publishing fails, then the row stays pending with a later next attempt', async () => {
    const failing: EventBus = {
      publish: async () => {
        throw new Error('broker said no');
      },
      subscribe: async () => undefined,
      status: () => 'up',
      close: async () => undefined,
    };
    const event = await db.transaction((trx) =>
      writeEvent(trx, { type: 'fails', tenantId: 't', projectId: 'p', data: {} }),
    );
    await new OutboxRelay(db, failing, logger).relayAll();
    const row = await db('outbox').where({ id: event.id }).first('published_at', 'attempts', 'next_attempt_at');
    expect(row.published_at).toBeNull();
    expect(row.attempts).toBe(1);
    expect(new Date(row.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
  });
});

describe('delayed events', () => {
  it('when an event is written with availableAt in the future, then the relay holds it until then', async () => {
    const published: string[] = [];
    const bus: EventBus = {
      publish: async (e: EventEnvelope) => void published.push(e.id),
      subscribe: async () => undefined,
      status: () => 'up',
      close: async () => undefined,
    };
    const later = await db.transaction((trx) =>
      writeEvent(
        trx,
        { type: 'later', tenantId: 't', projectId: 'p', data: {} },
        { availableAt: new Date(Date.now() + 300) },
      ),
    );
    const relay = new OutboxRelay(db, bus, logger);
    await relay.relayAll();
    expect(published).not.toContain(later.id);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await relay.relayAll();
    expect(published).toContain(later.id);
  });
});

describe('secret-bearing events', () => {
  it('when an event carrying a usable token is published, then its row is deleted at once; others are kept as published', async () => {
    const published: string[] = [];
    const bus: EventBus = {
      publish: async (e: EventEnvelope) => void published.push(e.id),
      subscribe: async () => undefined,
      status: () => 'up',
      close: async () => undefined,
    };
    const link = 'https://app.example.com/reset-password?token=usable-secret';
    const [reset, ordinary] = await db.transaction(async (trx) => [
      await writeEvent(trx, {
        type: AUTH_EVENTS.passwordResetRequested,
        tenantId: 't',
        projectId: 'p',
        data: { userId: 'u', email: 'u@example.com', link, expiresAt: new Date().toISOString() },
      }),
      await writeEvent(trx, { type: 'ordinary.event', tenantId: 't', projectId: 'p', data: {} }),
    ]);
    await new OutboxRelay(db, bus, logger).relayAll();
    expect(published).toEqual(expect.arrayContaining([reset.id, ordinary.id]));
    expect(await db('outbox').where({ id: reset.id }).first()).toBeUndefined();
    expect(await db('outbox').where({ id: ordinary.id }).first('published_at')).toEqual({
      published_at: expect.any(Date),
    });
    const anyWithToken = await db('outbox').whereRaw('envelope::text like ?', ['%usable-secret%']).first('id');
    expect(anyWithToken).toBeUndefined();
  });

  it('when publishing a secret-bearing event fails, then its row stays for the retry', async () => {
    let refused = '';
    // Refuses only this test's event: an older row left due by another test, refused first, would
    // end the batch before this one is tried.
    const failing: EventBus = {
      publish: async (e: EventEnvelope) => {
        if (e.id === refused) throw new Error('broker said no');
      },
      subscribe: async () => undefined,
      status: () => 'up',
      close: async () => undefined,
    };
    const event = await db.transaction((trx) =>
      writeEvent(trx, { type: AUTH_EVENTS.verificationRequested, tenantId: 't', projectId: 'p', data: {} }),
    );
    refused = event.id;
    await new OutboxRelay(db, failing, logger).relayAll();
    expect(await db('outbox').where({ id: event.id }).first('published_at', 'attempts')).toEqual({
      published_at: null,
      attempts: 1,
    });
    await db('outbox').where({ id: event.id }).delete();
  });
});
