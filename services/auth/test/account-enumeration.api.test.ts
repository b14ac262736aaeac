import { performance } from 'node:perf_hooks';
import bcrypt from 'bcrypt';
import { AUTH_EVENTS } from '@platform/events';
import type { TestProject, TestService } from '@platform/testkit';
import { LOCKOUT_MS, LOCKOUT_THRESHOLD } from '../src/sessions/sessions.service';
import { recordLoginFailure } from '../src/users/users.repository';
import { apiOf, outboxEvents, registerUser, startAuth, uniqueEmail, type Api } from './helpers';

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

  /** The SQL the service's database runs against the users table during `call`. */
  async function usersStatementsOf(call: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const listener = (query: { sql: string }) => {
      if (/\busers\b/.test(query.sql)) seen.push(query.sql);
    };
    svc.deps.db.on('query', listener);
    try {
      await call();
    } finally {
      svc.deps.db.removeListener('query', listener);
    }
    return seen;
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
    const forUnknown = await usersStatementsOf(() => login(uniqueEmail('nobody')));
    const forWrongPassword = await usersStatementsOf(() => login(user.email));
    expect(forWrongPassword).toHaveLength(2); // the lookup, then the failure count
    expect(forUnknown).toEqual(forWrongPassword);
  });

  it('when a failure is counted, then its commit does not wait for the WAL flush (writing costs no more than matching nothing)', async () => {
    const { user } = await registerUser(api, project);
    await svc.deps.db.transaction(async (trx) => {
      await recordLoginFailure(trx, project, user.email, LOCKOUT_THRESHOLD, LOCKOUT_MS);
      const shown = await trx.raw<{ rows: { synchronous_commit: string }[] }>('show synchronous_commit');
      expect(shown.rows[0].synchronous_commit).toBe('off');
      const row = await trx('users').where({ id: user.id }).first('failed_login_count');
      expect(row.failed_login_count).toBe(1);
    });
  });
});
