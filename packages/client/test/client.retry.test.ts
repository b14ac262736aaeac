/** Optional retries: idempotent calls only, on 429/502/503/504 and network errors, honouring Retry-After. */
import { sendJson, startHttpStub, type HttpStub } from '@platform/testkit';
import { createClient } from '../src';

let stub: HttpStub;
let failuresLeft: number;

beforeEach(async () => {
  failuresLeft = 0;
  stub = await startHttpStub((_req, res) => {
    if (failuresLeft-- > 0) {
      res.setHeader('retry-after', '0');
      sendJson(res, 503, { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } });
      return;
    }
    sendJson(res, 200, { success: true, notifications: [], total: 0, limit: 20, offset: 0 });
  });
});

afterEach(async () => {
  await stub.close();
});

const client = (attempts: number) =>
  createClient({ urls: { notifications: `${stub.url}/v1` }, retry: { attempts, baseDelayMs: 1 } });

test('when an idempotent call meets 503 and retries are on, then it is sent again until it succeeds', async () => {
  failuresLeft = 2;
  const result = await client(2).notifications.getNotifications();
  expect(result.response.status).toBe(200);
  expect(stub.requests).toHaveLength(3);
});

test('when the retries run out, then the last error is returned', async () => {
  failuresLeft = 5;
  const result = await client(1).notifications.getNotifications();
  expect(result.error?.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(result.rateLimit.retryAfterSeconds).toBe(0);
  expect(stub.requests).toHaveLength(2);
});

test('when a POST without an Idempotency-Key meets 503, then it is not sent again', async () => {
  failuresLeft = 1;
  const result = await client(3).notifications.postNotifications({ body: { title: 't', message: 'm' } });
  expect(result.response.status).toBe(503);
  expect(stub.requests).toHaveLength(1);
});

test('when a POST carries an Idempotency-Key, then it is retried like an idempotent call', async () => {
  failuresLeft = 1;
  const result = await client(3).notifications.postNotifications({
    body: { title: 't', message: 'm' },
    headers: { 'Idempotency-Key': 'k-1' },
  });
  expect(result.response.status).toBe(200);
  expect(stub.requests.map((r) => r.headers['idempotency-key'])).toEqual(['k-1', 'k-1']);
});

test('when retries are turned off for one call, then it is sent once', async () => {
  failuresLeft = 1;
  const result = await client(3).notifications.getNotifications({ retry: false });
  expect(result.response.status).toBe(503);
  expect(stub.requests).toHaveLength(1);
});
