import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { AmqpBus } from '@platform/events';
import { assembleService, type AssembledService, type ServiceDeps, type StopFunction } from '@platform/runtime';
import { createLogger } from '@platform/http';
import { createTestService, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { api } from './support/notifications-test-service';
import { named, openSse, type SseClient } from './support/sse-client';

const AMQP_URL = process.env.TEST_AMQP_URL;
const describeAmqp = AMQP_URL ? describe : describe.skip;
const logger = createLogger('notifications-test', 'silent');

interface Replica {
  app: Express;
  server: Server;
  base: string;
  bus: AmqpBus;
  stop: StopFunction;
}

/**
 * Two service instances on one database and one RabbitMQ, as two replicas behind a load
 * balancer: each has its own bus connection, hub and HTTP server.
 */
describeAmqp('live streams across replicas', () => {
  let svc: TestService;
  const replicas: Replica[] = [];
  const clients: SseClient[] = [];
  const namespace = `test-${randomUUID()}.`;

  async function replica(service: AssembledService, bus: AmqpBus): Promise<Replica> {
    const stopJobs = await service.startJobs();
    const stop: StopFunction = async () => {
      await stopJobs();
      await service.close();
    };
    const app = service.app;
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    return { app, server, base, bus, stop };
  }

  beforeAll(async () => {
    const buses = [0, 1].map(() => new AmqpBus({ url: AMQP_URL!, logger, namespace, queueExpiresMs: 60_000 }));
    for (const bus of buses) await bus.start();
    svc = await createTestService(notificationsService, { bus: buses[0] });
    const second: ServiceDeps = { ...svc.deps, bus: buses[1] };
    const first = { app: svc.app, parts: svc.parts, startJobs: () => svc.startJobs(), close: async () => undefined };
    replicas.push(await replica(first, buses[0]));
    replicas.push(await replica(assembleService(notificationsService, second), buses[1]));
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    for (const { stop, server, bus } of replicas) {
      await stop();
      await new Promise((resolve) => server.close(resolve));
      await bus.close();
    }
    await svc.close();
  });

  async function connected(on: Replica, headers: Record<string, string>, userId: string) {
    const client = await openSse(`${on.base}/notifications/stream?userId=${userId}`, headers);
    clients.push(client);
    expect(client.status).toBe(200);
    await client.next((e) => e.event === 'unread_count');
    return client;
  }

  /** A notification created through one replica's app (the shared client checks it). */
  async function post(on: Replica, headers: Record<string, string>, body: object) {
    const res = await api(on.app, headers).post('/notifications', { body });
    expect(res.status).toBe(201);
    return res;
  }

  it('when a notification is created through replica 1, then a stream held by replica 2 gets it with its count', async () => {
    const project = await svc.createProject();
    const onSecond = await connected(replicas[1], project.headers, 'alice');
    const created = await post(replicas[0], project.headers, { userId: 'alice', title: 'across', message: 'x' });
    const event = await onSecond.next((e) => e.event === 'notification');
    expect(event.data).toEqual(created.body);
    await onSecond.next((e) => e.event === 'unread_count' && (e.data as { count: number }).count === 1);
  });

  it('when a broadcast and a read happen on replica 2, then streams on both replicas see them once each', async () => {
    const project = await svc.createProject();
    const streams = [
      await connected(replicas[0], project.headers, 'bob'),
      await connected(replicas[1], project.headers, 'bob'),
    ];
    const broadcast = await post(replicas[1], project.headers, { title: 'all', message: 'x' });
    const read = await api(replicas[1].app, project.headers).patch(`/notifications/${broadcast.body.id}/read`, {
      query: { userId: 'bob' },
    });
    expect(read.status).toBe(200);
    for (const stream of streams) {
      await stream.next((e) => e.event === 'read');
      await stream.next((e) => e.event === 'unread_count' && (e.data as { count: number }).count === 0);
      expect(named(stream, 'notification')).toEqual([broadcast.body]);
      expect(named(stream, 'read')).toEqual([{ id: broadcast.body.id }]);
    }
  });

  it('when a client moves to the other replica with Last-Event-ID, then it gets what it missed there, once', async () => {
    const project = await svc.createProject();
    const first = await connected(replicas[0], project.headers, 'carol');
    const send = (title: string) => post(replicas[0], project.headers, { userId: 'carol', title, message: 'x' });
    await send('before');
    const seen = await first.next((e) => e.event === 'notification');
    first.close();
    await send('missed');
    const moved = await openSse(`${replicas[1].base}/notifications/stream?userId=carol`, {
      ...project.headers,
      'last-event-id': seen.id!,
    });
    clients.push(moved);
    await send('live');
    await moved.next((e) => e.event === 'notification' && (e.data as { title: string }).title === 'live');
    expect((named(moved, 'notification') as { title: string }[]).map((n) => n.title)).toEqual(['missed', 'live']);
  });
});
