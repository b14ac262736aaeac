/**
 * The client against the real auth service (in-process, real Postgres): key headers, results,
 * request ids, rate-limit information, and the end-user mode's refresh.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestService, type TestProject, type TestService } from '@platform/testkit';
import { authService } from '../../../services/auth/src';
import { createClient, memorySessionStore, NetworkError, type Session } from '../src';

let auth: TestService;
let server: Server;
let url: string;
let project: TestProject;
let refreshCalls: number;

/** fetch that counts the refresh calls the client makes. */
const countingFetch: typeof fetch = (input, init) => {
  if (String(input instanceof Request ? input.url : input).endsWith('/refresh-token')) refreshCalls++;
  return fetch(input, init);
};

beforeAll(async () => {
  auth = await createTestService(authService);
  server = createServer(auth.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  project = await auth.createProject();
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await auth.close();
});

beforeEach(() => {
  refreshCalls = 0;
});

const keys = () => ({
  apiKey: project.apiKey,
  secretKey: project.secretKey,
  tenantId: project.tenantId,
  projectId: project.projectId,
});
let counter = 0;
const newEmail = () => `client-${Date.now()}-${counter++}@example.com`;

async function signUp(): Promise<Session & { email: string }> {
  const email = newEmail();
  const client = createClient({ urls: { auth: url }, keys: keys() });
  const { data, error } = await client.auth.postRegister({ body: { email, password: 'correct horse battery' } });
  if (!data) throw new Error(`register failed: ${JSON.stringify(error)}`);
  return { email, accessToken: data.accessToken, refreshToken: data.refreshToken };
}

test('when a call succeeds, then data is typed, the request id and rate limit are surfaced', async () => {
  const client = createClient({ urls: { auth: url }, keys: keys() });
  const email = newEmail();
  const result = await client.auth.postRegister({
    body: { email, password: 'correct horse battery' },
    headers: { 'x-request-id': 'client-test-1' },
  });
  expect(result.error).toBeUndefined();
  expect(result.data?.user.email).toBe(email);
  expect(result.requestId).toBe('client-test-1');
  expect(result.rateLimit.limit).toBeGreaterThan(0);
  expect(result.rateLimit.remaining).toBeLessThanOrEqual(result.rateLimit.limit!);
});

test('when the service refuses the input, then the error envelope is returned, not thrown', async () => {
  const client = createClient({ urls: { auth: url }, keys: keys() });
  const result = await client.auth.postRegister({ body: { email: 'not-an-email', password: 'short' } });
  expect(result.data).toBeUndefined();
  expect(result.response.status).toBe(400);
  expect(result.error?.error.code).toBe('VALIDATION_ERROR');
  expect(result.requestId).toEqual(expect.any(String));
});

test('when the keys are wrong, then the call returns 401 UNAUTHORIZED', async () => {
  const client = createClient({ urls: { auth: url }, keys: { ...keys(), secretKey: 'sk_wrong' } });
  const result = await client.auth.getUsersByEmail({ params: { query: { email: 'a@example.com' } } });
  expect(result.error?.error.code).toBe('UNAUTHORIZED');
});

test('when a project asks for a user of another project, then it is not found', async () => {
  const user = await signUp();
  const other = await auth.createProject();
  const client = createClient({
    urls: { auth: url },
    keys: { apiKey: other.apiKey, secretKey: other.secretKey, tenantId: other.tenantId, projectId: other.projectId },
  });
  const result = await client.auth.getUsersByEmail({ params: { query: { email: user.email } } });
  expect(result.error?.error.code).toBe('NOT_FOUND');
});

test('when the connection fails, then a NetworkError is thrown, distinct from API errors', async () => {
  // A server that drops every connection, held open so no other process can take its port.
  const dropping = createServer((req) => req.socket.destroy());
  await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
  const port = (dropping.address() as AddressInfo).port;
  try {
    const client = createClient({ urls: { auth: `http://127.0.0.1:${port}/v1` }, keys: keys() });
    await expect(client.auth.getWellKnownJwksJson()).rejects.toBeInstanceOf(NetworkError);
  } finally {
    await new Promise((resolve) => dropping.close(resolve));
  }
});

test('when a user is signed in, then bearer routes work without the project keys', async () => {
  const user = await signUp();
  const client = createClient({ urls: { auth: url }, session: user });
  const me = await client.auth.getMe();
  expect(me.data?.user.email).toBe(user.email);
});

test('when two calls race with a refused access token, then the session is refreshed once and both succeed', async () => {
  const user = await signUp();
  const store = memorySessionStore({ accessToken: 'stale.access.token', refreshToken: user.refreshToken });
  const client = createClient({ urls: { auth: url }, keys: keys(), sessionStore: store, fetch: countingFetch });
  const [first, second] = await Promise.all([client.auth.getMe(), client.auth.getMe()]);
  expect(first.data?.user.email).toBe(user.email);
  expect(second.data?.user.email).toBe(user.email);
  expect(refreshCalls).toBe(1);
  const rotated = (await store.get())!;
  expect(rotated.refreshToken).not.toBe(user.refreshToken);
  // The rotated token still works: the race did not present the old one again (that revokes the family).
  const again = await client.auth.postRefreshToken({ body: { refreshToken: rotated.refreshToken! } });
  expect(again.response.status).toBe(200);
});

test('when the refresh token is refused, then the session ends and the 401 is returned', async () => {
  const ended: (Session | null)[] = [];
  const client = createClient({
    urls: { auth: url },
    keys: keys(),
    session: { accessToken: 'stale.access.token', refreshToken: 'not-a-refresh-token' },
    onSessionChange: (session) => ended.push(session),
  });
  const me = await client.auth.getMe();
  expect(me.response.status).toBe(401);
  expect(ended).toEqual([null]);
  expect(await client.getSession()).toBeNull();
});
