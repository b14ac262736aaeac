import { Writable } from 'node:stream';
import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { createLogger } from '@platform/http';
import { createTestDatabase, waitFor } from '@platform/testkit';
import { contextOfCarrier, inSpan, SpanKind } from '@platform/telemetry';
import { startInMemoryTracing, type InMemoryTracing } from '@platform/telemetry/src/in-memory';
import { envelopeOf, eventMigrations, InProcessBus, OutboxRelay, withOutbox, type EventEnvelope } from '../src';

const silent = createLogger('event-tracing-test', 'silent');
const UNSAMPLED_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
let tracing: InMemoryTracing;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;

beforeAll(async () => {
  tracing = startInMemoryTracing();
  database = await createTestDatabase('event_tracing');
  // Created after the provider is registered: the query spans are installed only then.
  db = createDb({ url: database.url, poolMax: 4 });
  await migrateLatest(db, eventMigrations);
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
  await tracing.stop();
});

beforeEach(() => tracing.reset());

describe('trace context through the outbox and the bus', () => {
  it('when a traced request writes an event, then its consumer runs in the same trace, as a child of the outbox write', async () => {
    const bus = new InProcessBus(silent);
    const lines: string[] = [];
    const logger = createLogger(
      'consumer',
      'info',
      new Writable({ write: (chunk, _e, done) => void (lines.push(String(chunk)), done()) }),
    );
    const seen: EventEnvelope[] = [];
    await bus.subscribe({
      queue: 'mailer.q',
      topics: ['auth.#'],
      handler: async (event) => {
        logger.info('handled', { type: event.type });
        seen.push(event);
      },
    });
    const relay = new OutboxRelay(db, bus, silent, { pollIntervalMs: 20 });
    relay.start();
    const traceId = await inSpan('POST /v1/register', { kind: SpanKind.SERVER }, async (span) => {
      await withOutbox(db, relay, (_trx, outbox) =>
        outbox.write({
          type: 'auth.user.registered',
          tenantId: 't1',
          projectId: 'p1',
          data: { email: 'ada@example.com' },
        }),
      );
      return span.spanContext().traceId;
    });
    await waitFor(() => seen.length === 1);
    await relay.stop();
    await bus.close();
    await waitFor(() => tracing.spans().some((s) => s.name === 'consume auth.user.registered'));

    const spans = tracing.spans();
    const named = (name: string) => spans.find((s) => s.name === name)!;
    const outbox = named('outbox auth.user.registered');
    const publish = named('publish auth.user.registered');
    const consume = named('consume auth.user.registered');
    for (const span of [outbox, publish, consume]) expect(span.spanContext().traceId).toBe(traceId);
    expect(consume.parentSpanContext?.spanId).toBe(outbox.spanContext().spanId);
    expect(consume.attributes).toMatchObject({
      'messaging.destination.name': 'auth.user.registered',
      'messaging.consumer.group.name': 'mailer.q',
      'platform.project.id': 'p1',
      'platform.tenant.id': 't1',
    });
    expect(seen[0].trace?.traceparent).toContain(traceId);

    // The outbox insert is a query span of the same trace: kind and table, no values.
    const insert = spans.find((s) => s.name === 'INSERT outbox')!;
    expect(insert.spanContext().traceId).toBe(traceId);
    expect(insert.attributes).toMatchObject({ 'db.operation.name': 'INSERT', 'db.collection.name': 'outbox' });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('ada@example.com');

    // The consumer's log line carries the ids of its span.
    const line = JSON.parse(lines.find((l) => l.includes('handled'))!) as Record<string, string>;
    expect(line.trace_id).toBe(traceId);
    expect(line.span_id).toBe(consume.spanContext().spanId);
  });

  it('when a traced request publishes a signal straight to the bus, then its consumers run in that trace', async () => {
    const bus = new InProcessBus(silent);
    const seen: EventEnvelope[] = [];
    await bus.subscribe({ queue: 'live', topics: ['#'], perProcess: true, handler: async (e) => void seen.push(e) });
    const requestSpan = await inSpan('POST /v1/notifications', { kind: SpanKind.SERVER }, async (span) => {
      await bus.publish(envelopeOf({ type: 'notifications.changed', tenantId: 't1', projectId: 'p1', data: {} }));
      return span.spanContext();
    });
    await waitFor(() => tracing.spans().some((s) => s.name === 'consume notifications.changed'));
    await bus.close();
    const consume = tracing.spans().find((s) => s.name === 'consume notifications.changed')!;
    expect(consume.spanContext().traceId).toBe(requestSpan.traceId);
    expect(consume.parentSpanContext?.spanId).toBe(requestSpan.spanId);
    expect(seen).toHaveLength(1);
  });

  it('when an unsampled request writes an event, then the event carries its unsampled context and nothing is recorded', async () => {
    const bus = new InProcessBus(silent);
    const seen: EventEnvelope[] = [];
    await bus.subscribe({ queue: 'q', topics: ['#'], handler: async (event) => void seen.push(event) });
    const relay = new OutboxRelay(db, bus, silent, { pollIntervalMs: 20 });
    relay.start();
    const unsampled = contextOfCarrier({ traceparent: `00-${UNSAMPLED_TRACE}-00f067aa0ba902b7-00` });
    await inSpan('POST /v1/content', { kind: SpanKind.SERVER, parent: unsampled }, () =>
      withOutbox(db, relay, (_trx, outbox) =>
        outbox.write({ type: 'cms.content.created', tenantId: 't1', projectId: 'p1', data: {} }),
      ),
    );
    await waitFor(() => seen.length === 1);
    await relay.stop();
    await bus.close();
    expect(seen[0].trace?.traceparent).toMatch(new RegExp(`^00-${UNSAMPLED_TRACE}-[0-9a-f]{16}-00$`));
    expect(tracing.spans()).toEqual([]);
  });

  it('when an event is written outside any trace, then it carries no context and no span is made', async () => {
    const bus = new InProcessBus(silent);
    const seen: EventEnvelope[] = [];
    await bus.subscribe({ queue: 'q', topics: ['#'], handler: async (event) => void seen.push(event) });
    const relay = new OutboxRelay(db, bus, silent, { pollIntervalMs: 20 });
    relay.start();
    await withOutbox(db, relay, (_trx, outbox) =>
      outbox.write({ type: 'cms.content.created', tenantId: 't1', projectId: 'p1', data: {} }),
    );
    await waitFor(() => seen.length === 1);
    await relay.stop();
    await bus.close();
    expect(seen[0]).not.toHaveProperty('trace');
    expect(tracing.spans()).toEqual([]);
  });
});
