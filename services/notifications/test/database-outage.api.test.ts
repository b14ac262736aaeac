import request from 'supertest';
import { assertMatchesOpenApi, createTestService, waitFor, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { openapi } from '../src/openapi';

let svc: TestService;

beforeAll(async () => {
  // A short key cache, so the outage also reaches the key check (the platform database).
  svc = await createTestService(notificationsService, { databaseRelay: true, keyCacheTtlMs: 1 });
});
afterAll(() => svc?.close());

describe('when Postgres cannot be reached', () => {
  it('when the database is cut off, then writes and reads answer 503 with Retry-After, and succeed once it is back', async () => {
    const project = await svc.createProject();
    const write = () =>
      request(svc.app)
        .post('/v1/notifications')
        .set(project.headers)
        .send({ userId: 'ada', title: 'Hello', message: 'Hi', type: 'info' });
    expect((await write()).status).toBe(201);

    svc.databaseRelay!.cut();
    for (const res of [
      await write(),
      await request(svc.app).get('/v1/notifications?userId=ada').set(project.headers),
    ]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      assertMatchesOpenApi(openapi, res as never);
    }

    svc.databaseRelay!.restore();
    await waitFor(async () => (await write()).status === 201);
    const list = await request(svc.app).get('/v1/notifications?userId=ada').set(project.headers);
    expect(list.body.notifications.length).toBeGreaterThanOrEqual(2);
  });
});
