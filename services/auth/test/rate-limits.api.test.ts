import type { TestProject, TestService } from '@platform/testkit';
import { apiOf, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

const ENDPOINTS = ['/login', '/register', '/forgot-password', '/resend-verification'];
const bodyFor = (email: string) => ({ email, password: 'some password' });

function expectLimited(res: { status: number; headers: Record<string, string>; body: { error: { code: string } } }) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('RATE_LIMITED');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers.ratelimit).toEqual(expect.any(String));
}

describe('per-email limits', () => {
  let svc: TestService;
  let api: Api;
  let project: TestProject;

  beforeAll(async () => {
    svc = await startAuth({
      AUTH_RATE_LIMIT_PER_EMAIL: '2',
      AUTH_RATE_LIMIT_PER_IP: '1000',
      AUTH_RATE_LIMIT_WINDOW_MS: '60000',
    });
    api = apiOf(svc.app);
    project = await svc.createProject();
  });
  afterAll(() => svc.close());

  it.each(ENDPOINTS)(
    'when %s names the same email more often than the limit, then 429 with Retry-After',
    async (path) => {
      const email = uniqueEmail('limited');
      for (let i = 0; i < 2; i++) {
        expect((await api.post(path, { headers: project.headers, body: bodyFor(email) })).status).not.toBe(429);
      }
      expectLimited(await api.post(path, { headers: project.headers, body: bodyFor(email.toUpperCase()) }));
      expect((await api.post(path, { headers: project.headers, body: bodyFor(uniqueEmail('other')) })).status).not.toBe(
        429,
      );
    },
  );

  it('when the same email is limited in one project, then another project is not affected', async () => {
    const second = await svc.createProject();
    const email = uniqueEmail('shared');
    for (let i = 0; i < 3; i++) await api.post('/login', { headers: project.headers, body: bodyFor(email) });
    const res = await api.post('/login', { headers: second.headers, body: bodyFor(email) });
    expect(res.status).toBe(401);
  });
});

describe('per-IP limits', () => {
  let svc: TestService;
  let api: Api;
  let project: TestProject;

  beforeAll(async () => {
    svc = await startAuth({
      AUTH_RATE_LIMIT_PER_EMAIL: '1000',
      AUTH_RATE_LIMIT_PER_IP: '3',
      AUTH_RATE_LIMIT_WINDOW_MS: '60000',
    });
    api = apiOf(svc.app);
    project = await svc.createProject();
  });
  afterAll(() => svc.close());

  it.each(ENDPOINTS)(
    'when one client calls %s more often than the limit with different emails, then 429',
    async (path) => {
      for (let i = 0; i < 3; i++) {
        expect((await api.post(path, { headers: project.headers, body: bodyFor(uniqueEmail()) })).status).not.toBe(429);
      }
      expectLimited(await api.post(path, { headers: project.headers, body: bodyFor(uniqueEmail()) }));
    },
  );

  it('when a limited client calls an endpoint without a limit, then it is served', async () => {
    const res = await api.post('/refresh-token', { headers: project.headers, body: { refreshToken: 'rt_x' } });
    expect(res.status).toBe(401);
  });
});
