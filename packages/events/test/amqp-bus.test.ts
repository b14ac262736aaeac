import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { createTestDatabase, startTcpProxy, waitFor, type TcpProxy } from '@platform/testkit';
import { createLogger } from '@platform/http';
import { AmqpBus, envelopeOf, eventMigrations, idempotent, OutboxRelay, writeEvent, type EventEnvelope } from '../src';

const AMQP_URL = process.env.TEST_AMQP_URL;
const describeAmqp = AMQP_URL ? describe : describe.skip;
const logger = createLogger('events-test', 'silent');

function amqpUrlThrough(proxy: TcpProxy): string {
  const url = new URL(AMQP_URL!);
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return url.toString();
}

describeAmqp('RabbitMQ event bus', () => {
  const buses: AmqpBus[] = [];
  const queues: string[] = [];
  const newBus = async (url = AMQP_URL!) => {
    const bus = new AmqpBus({ url, logger, maxReconnectDelayMs: 200 });
    await bus.start();
    buses.push(bus);
    return bus;
  };
  const newQueue = () => {
    const name = `test.events.${randomUUID()}`;
    queues.push(name);
    return name;
  };

  afterAll(async () => {
    for (const bus of buses) await bus.close();
    const connection = await amqp.connect(AMQP_URL!);
    const channel = await connection.createChannel();
    for (const q of queues) for (const suffix of ['', '.retry', '.dlq']) await channel.deleteQueue(`${q}${suffix}`);
    await connection.close();
  });

  it('when an event is published, then its consumer gets it exactly once', async () => {
    const bus = await newBus();
    const type = `test.${randomUUID()}.created`;
    // Published after the event: once it is in, a second copy of the event would have come before it.
    const marker = `${type}.marker`;
    const seen: EventEnvelope[] = [];
    await bus.subscribe({ queue: newQueue(), topics: [type, marker], handler: async (e) => void seen.push(e) });
    const event = envelopeOf({ type, tenantId: 't', projectId: 'p', data: { n: 1 } });
    await bus.publish(event);
    await waitFor(() => seen.length === 1);
    await bus.publish(envelopeOf({ type: marker, tenantId: 't', projectId: 'p', data: {} }));
    await waitFor(() => seen.some((e) => e.type === marker));
    expect(seen.filter((e) => e.type === type)).toHaveLength(1);
    expect(seen[0]).toEqual(event);
  });

  it('when two processes subscribe per process under one queue name, then each gets every event', async () => {
    const [first, second] = [await newBus(), await newBus()];
    const type = `test.${randomUUID()}.signal`;
    const queue = `test.events.${randomUUID()}`;
    const seen: string[][] = [[], []];
    for (const [i, bus] of [first, second].entries()) {
      await bus.subscribe({ queue, topics: [type], perProcess: true, handler: async (e) => void seen[i].push(e.id) });
    }
    const events = [1, 2].map((n) => envelopeOf({ type, tenantId: 't', projectId: 'p', data: { n } }));
    for (const event of events) await first.publish(event);
    await waitFor(() => seen[0].length === 2 && seen[1].length === 2);
    expect(seen).toEqual([events.map((e) => e.id), events.map((e) => e.id)]);
  });

  it('when a consumer keeps throwing, then the event is retried and then dead-lettered', async () => {
    const bus = await newBus();
    const type = `test.${randomUUID()}.failing`;
    const queue = newQueue();
    let attempts = 0;
    await bus.subscribe({
      queue,
      topics: [type],
      maxAttempts: 3,
      retryDelaysMs: [50],
      handler: async () => {
        attempts++;
        throw new Error('consumer is broken');
      },
    });
    await bus.publish(envelopeOf({ type, tenantId: 't', projectId: 'p', data: {} }));
    await waitFor(() => attempts === 3);
    const connection = await amqp.connect(AMQP_URL!);
    const channel = await connection.createChannel();
    const dead = await waitFor(async () => channel.get(`${queue}.dlq`, { noAck: true }));
    expect(JSON.parse(dead.content.toString()).type).toBe(type);
    expect(dead.properties.headers?.['x-error']).toContain('consumer is broken');
    await connection.close();
    expect(attempts).toBe(3);
  });

  describe('with the outbox', () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let db: Knex;

    beforeAll(async () => {
      database = await createTestDatabase('events');
      db = createDb({ url: database.url, poolMax: 4 });
      await migrateLatest(db, eventMigrations);
    });

    afterAll(async () => {
      await db.destroy();
      await database.drop();
    });

    it('when an event is written while the broker is down, then it is delivered after the broker returns', async () => {
      const target = new URL(AMQP_URL!);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5672));
      const publisher = await newBus(amqpUrlThrough(proxy));
      const consumer = await newBus();
      const type = `test.${randomUUID()}.while-down`;
      const seen: string[] = [];
      await consumer.subscribe({ queue: newQueue(), topics: [type], handler: async (e) => void seen.push(e.id) });
      const relay = new OutboxRelay(db, publisher, logger, { pollIntervalMs: 50 });
      relay.start();

      proxy.cut();
      await waitFor(() => publisher.status() === 'down');
      const written = await db.transaction((trx) => writeEvent(trx, { type, tenantId: 't', projectId: 'p', data: {} }));
      // A whole relay pass while the broker is away: it publishes nothing and keeps the row.
      await relay.relayAll();
      expect(seen).toEqual([]);
      const pending = await db('outbox').where({ id: written.id }).first('published_at');
      expect(pending.published_at).toBeNull();

      proxy.restore();
      await waitFor(() => seen.length === 1, { timeoutMs: 15_000 });
      expect(seen).toEqual([written.id]);
      await waitFor(async () => (await db('outbox').where({ id: written.id }).first('published_at')).published_at);
      await relay.stop();
      await proxy.close();
    });

    it('when the same event is delivered twice, then an idempotent consumer applies it once', async () => {
      const bus = await newBus();
      const type = `test.${randomUUID()}.twice`;
      let applied = 0;
      let handled = 0;
      const apply = idempotent(db, `consumer-${randomUUID()}`, async () => {
        applied++;
      });
      await bus.subscribe({
        queue: newQueue(),
        topics: [type],
        handler: async (event) => {
          await apply(event);
          handled++;
        },
      });
      const event = envelopeOf({ type, tenantId: 't', projectId: 'p', data: {} });
      await bus.publish(event);
      await bus.publish(event);
      await waitFor(() => handled === 2);
      expect(applied).toBe(1);
      expect(await db('processed_events').where({ event_id: event.id })).toHaveLength(1);
    });
  });
});
