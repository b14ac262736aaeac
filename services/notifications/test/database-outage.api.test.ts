import { createTestService, waitFor, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { api } from './support/notifications-test-service';

let svc: TestService;

beforeAll(async () => {
  // A short key cache, so the outage also reaches the key check (the platform database).
  svc = await createTestService(notificationsService, { databaseRelay: true, keyCacheTtlMs: 1 });
});
afterAll(() => svc?.close());

describe('when Postgres cannot be reached', () => {
  it('when the database is cut off, then writes and reads answer 503 with Retry-After, and succeed once it is back', async () => {
    const project = await svc.createProject();
    const client = api(svc.app, project.headers);
    const write = () =>
      client.post('/notifications', { body: { userId: 'ada', title: 'Hello', message: 'Hi', type: 'info' } });
    expect((await write()).status).toBe(201);

    svc.databaseRelay!.cut();
    for (const res of [await write(), await client.get('/notifications', { query: { userId: 'ada' } })]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }

    svc.databaseRelay!.restore();
    await waitFor(async () => (await write()).status === 201);
    const list = await client.get('/notifications', { query: { userId: 'ada' } });
    expect(list.body.notifications.length).toBeGreaterThanOrEqual(2);
  });
});
