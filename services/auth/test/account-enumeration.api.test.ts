import { performance } from 'node:perf_hooks';
import bcrypt from 'bcrypt';
import { AUTH_EVENTS } from '@platform/events';
import { statementsDuring, type TestProject, type TestService } from '@platform/testkit';
import { emailKey } from '../src/lockout/login-failures.repository';
import { apiOf, outboxEvents, registerUser, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

// Wall times are too noisy on a shared machine to compare two paths directly, so these tests
// assert what makes the times alike: the forgot-password floor (a lower bound, which holds
// however loaded the machine is) and, on login, the same bcrypt and database work.

const FLOOR_MS = 250;

let svc: TestService;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth({ AUTH_FORGOT_PASSWORD_MIN_MS: String(FLOOR_MS) });
  api = apiOf(svc.app);
  project = await svc.createProject();
});
afterAll(() => svc.close());

async function timed<T>(call: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const start = performance.now();
  const res = await call();
  return { res, ms: performance.now() - start };
}

describe('POST /v1/forgot-password', () => {
  const forgot = (email: string) => api.post('/forgot-password', { headers: project.headers, body: { email } });

  it('when the email exists or not, then the same body, each answer no sooner than AUTH_FORGOT_PASSWORD_MIN_MS', async () => {
    const { user } = await registerUser(api, project);
    const known = await timed(() => forgot(user.email));
    const unknown = await timed(() => forgot(uniqueEmail('nobody')));
    expect(known.res.status).toBe(200);
    expect(unknown.res.body).toEqual(known.res.body);
    expect(known.ms).toBeGreaterThanOrEqual(FLOOR_MS);
    expect(unknown.ms).toBeGreaterThanOrEqual(FLOOR_MS);
  });

  it('when the email exists, then its token and reset event are committed before the floored answer', async () => {
    const { user } = await registerUser(api, project);
    await forgot(user.email);
    const tokens = await svc.deps.db('account_tokens').where({ user_id: user.id, purpose: 'reset_password' });
    const events = await outboxEvents<{ userId: string }>(svc.deps.db, project, AUTH_EVENTS.passwordResetRequested);
    expect(tokens).toHaveLength(1);
    expect(events.filter((e) => e.data.userId === user.id)).toHaveLength(1);
  });
});

describe('POST /v1/login', () => {
  const login = (email: string) =>
    api.post('/login', { headers: project.headers, body: { email, password: 'wrong password' } });

  /** The SQL the service's database runs against the accounts and the failure counts during `call`. */
  async function loginStatementsOf(call: () => Promise<unknown>): Promise<string[]> {
    return (await statementsDuring(svc.deps.db, call)).filter((sql) => /\b(users|login_failures)\b/.test(sql));
  }

  it('when the email is unknown, then login does the one bcrypt comparison at the configured cost that a wrong password does', async () => {
    const { user } = await registerUser(api, project);
    const compare = jest.spyOn(bcrypt, 'compare');
    try {
      expect((await login(uniqueEmail('nobody'))).status).toBe(401);
      const forUnknown = compare.mock.calls.map(([, hash]) => String(hash).slice(0, 7));
      compare.mockClear();
      expect((await login(user.email)).status).toBe(401);
      const forWrongPassword = compare.mock.calls.map(([, hash]) => String(hash).slice(0, 7));
      expect(forUnknown).toEqual(['$2b$04$']);
      expect(forUnknown).toEqual(forWrongPassword);
    } finally {
      compare.mockRestore();
    }
  });

  it('when the email is unknown, then login runs the same database statements as a wrong password', async () => {
    const { user } = await registerUser(api, project);
    const forUnknown = await loginStatementsOf(() => login(uniqueEmail('nobody')));
    const forWrongPassword = await loginStatementsOf(() => login(user.email));
    expect(forWrongPassword).toHaveLength(2); // the lookup (account and lock), then the failure count
    expect(forUnknown).toEqual(forWrongPassword);
  });

  it('when the email is unknown or the password wrong, then the failure is counted on the same kind of row, which holds no address', async () => {
    const { user } = await registerUser(api, project);
    const unknown = uniqueEmail('nobody');
    await login(unknown);
    await login(user.email);
    const rows = await svc.deps
      .db('login_failures')
      .where({ tenant_id: project.tenantId, project_id: project.projectId })
      .whereIn('email_hash', [emailKey(unknown), emailKey(user.email)])
      .select('email_hash', 'failed_count', 'locked_until');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ failed_count: 1, locked_until: null });
    expect(JSON.stringify(rows)).not.toMatch(/@example\.com/);
  });

  it('when 5 logins fail for an unknown email and for a real account, then the 6th answers both with the same 423 and Retry-After', async () => {
    const { user } = await registerUser(api, project);
    const unknown = uniqueEmail('nobody');
    for (let i = 0; i < 5; i++) {
      expect((await login(unknown)).status).toBe(401);
      expect((await login(user.email)).status).toBe(401);
    }
    const forUnknown = await login(unknown);
    const forAccount = await login(user.email);
    expect(forAccount.status).toBe(423);
    expect(forUnknown.status).toBe(423);
    expect(forUnknown.body).toEqual(forAccount.body);
    const seconds = (res: typeof forUnknown) => Number(res.headers['retry-after']);
    expect(seconds(forUnknown)).toBeGreaterThan(14 * 60);
    expect(seconds(forUnknown)).toBeLessThanOrEqual(15 * 60);
    expect(seconds(forAccount)).toBeGreaterThan(14 * 60);
  });
});
