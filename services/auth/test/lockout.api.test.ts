import { tryTransactionLock } from '@platform/db';
import { waitFor, type TestProject, type TestService } from '@platform/testkit';
import { LOCKOUT_MS } from '../src/lockout/lockout.policy';
import { emailKey } from '../src/lockout/login-failures.repository';
import { PRUNE_LOCK, pruneLoginFailures, startLoginFailurePrune } from '../src/lockout/login-failures.prune';
import { apiOf, PASSWORD, registerUser, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject();
});
afterAll(() => svc.close());

const login = (email: string, password = 'wrong password', p: TestProject = project) =>
  api.post('/login', { headers: p.headers, body: { email, password } });

async function failTimes(times: number, email: string, p: TestProject = project): Promise<void> {
  for (let i = 0; i < times; i++) expect((await login(email, 'wrong password', p)).status).toBe(401);
}

const rowOf = (email: string, p: TestProject = project) =>
  svc.deps.db('login_failures').where({ tenant_id: p.tenantId, project_id: p.projectId, email_hash: emailKey(email) });

/** Moves the email's row back in time: the only way to have "15 minutes later" without waiting. */
async function backdate(email: string, ms: number, p: TestProject = project): Promise<void> {
  const by = svc.deps.db.raw("? * interval '1 millisecond'", [ms]);
  await rowOf(email, p).update({
    last_failed_at: svc.deps.db.raw('last_failed_at - ?', [by]),
    locked_until: svc.deps.db.raw('locked_until - ?', [by]),
  });
}

describe('lockout of an email without an account', () => {
  it('when 5 logins fail, then the 6th is 423 ACCOUNT_LOCKED with Retry-After, as for an account', async () => {
    const email = uniqueEmail('ghost');
    await failTimes(5, email);
    const locked = await login(email);
    expect(locked.status).toBe(423);
    expect(locked.body).toEqual({ success: false, error: { code: 'ACCOUNT_LOCKED', message: expect.any(String) } });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('when the email comes in another case and with spaces, then the failures count on the same email', async () => {
    const email = uniqueEmail('ghost');
    await failTimes(3, email);
    await failTimes(2, `  ${email.toUpperCase()} `);
    expect((await login(email)).status).toBe(423);
  });

  it('when the 15-minute lock has passed, then the answer is 401 again and a fresh run of 5 is needed to lock', async () => {
    const email = uniqueEmail('ghost');
    await failTimes(5, email);
    expect((await login(email)).status).toBe(423);
    await backdate(email, LOCKOUT_MS + 1000);
    await failTimes(5, email);
    expect((await login(email)).status).toBe(423);
  });

  it('when 15 minutes pass without a failure, then the run is forgotten and counting starts again', async () => {
    const email = uniqueEmail('ghost');
    await failTimes(4, email);
    await backdate(email, LOCKOUT_MS + 1000);
    await failTimes(4, email);
    expect(await rowOf(email).first('failed_count', 'locked_until')).toEqual({ failed_count: 4, locked_until: null });
    expect((await login(email)).status).toBe(401);
    expect((await login(email)).status).toBe(423);
  });

  it('when 5 failures arrive at once, then every one counts and the next attempt is locked', async () => {
    const email = uniqueEmail('ghost');
    const results = await Promise.all(Array.from({ length: 5 }, () => login(email)));
    expect(results.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect((await login(email)).status).toBe(423);
  });

  it('when the email is locked in one project, then the same email in another project is not affected', async () => {
    const other = await svc.createProject();
    const email = uniqueEmail('ghost');
    await failTimes(5, email);
    expect((await login(email)).status).toBe(423);
    expect((await login(email, 'wrong password', other)).status).toBe(401);
    await registerUser(api, other, email);
    expect((await login(email, PASSWORD, other)).status).toBe(200);
    expect(await rowOf(email, other)).toEqual([]);
  });

  it('when the locked email then registers, then the new account starts unlocked', async () => {
    const email = uniqueEmail('ghost');
    await failTimes(5, email);
    expect((await login(email, PASSWORD)).status).toBe(423);
    await registerUser(api, project, email);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('when an account is locked in one project, then the same email with an account in another project logs in', async () => {
    const other = await svc.createProject();
    const { user } = await registerUser(api, project);
    await registerUser(api, other, user.email);
    await failTimes(5, user.email);
    expect((await login(user.email, PASSWORD)).status).toBe(423);
    expect((await login(user.email, PASSWORD, other)).status).toBe(200);
  });
});

describe('pruning of stale failure counts', () => {
  /** A row per state, made through failed logins and then moved back in time. */
  async function rowsInEveryState() {
    const stale = uniqueEmail('stale');
    const lockRanOut = uniqueEmail('ran-out');
    const recent = uniqueEmail('recent');
    const locked = uniqueEmail('locked');
    await failTimes(2, stale);
    await backdate(stale, LOCKOUT_MS + 1000);
    await failTimes(5, lockRanOut);
    await backdate(lockRanOut, LOCKOUT_MS + 1000);
    await failTimes(1, recent);
    await backdate(recent, LOCKOUT_MS - 60_000);
    await failTimes(5, locked);
    // A lock in force keeps its row however old the last failure (a lock longer than the window).
    await rowOf(locked).update({ last_failed_at: svc.deps.db.raw("now() - interval '1 day'") });
    return { stale, lockRanOut, recent, locked };
  }

  const remaining = async (emails: string[]) => {
    const rows = await svc.deps.db('login_failures').whereIn('email_hash', emails.map(emailKey)).select('email_hash');
    return emails.filter((e) => rows.some((r: { email_hash: string }) => r.email_hash === emailKey(e)));
  };

  it('when a row had no failure for 15 minutes and holds no lock, then it is removed; recent and locked rows stay', async () => {
    const { stale, lockRanOut, recent, locked } = await rowsInEveryState();
    const result = await pruneLoginFailures(svc.deps.db);
    expect(result.skipped).toBe(false);
    expect(result.removed).toBeGreaterThanOrEqual(2);
    expect(await remaining([stale, lockRanOut, recent, locked])).toEqual([recent, locked]);
    // Pruning changes no answer: the pruned emails count from zero, the locked one stays locked.
    expect((await login(lockRanOut)).status).toBe(401);
    expect((await login(locked)).status).toBe(423);
  });

  it('when there are more stale rows than one batch, then every batch runs until none is left', async () => {
    const emails = Array.from({ length: 5 }, () => uniqueEmail('stale'));
    for (const email of emails) {
      await failTimes(1, email);
      await backdate(email, LOCKOUT_MS + 1000);
    }
    const result = await pruneLoginFailures(svc.deps.db, 2);
    expect(result.removed).toBeGreaterThanOrEqual(5);
    expect(await remaining(emails)).toEqual([]);
  });

  it('when another replica holds the prune lock, then this run is skipped and removes nothing', async () => {
    const email = uniqueEmail('stale');
    await failTimes(1, email);
    await backdate(email, LOCKOUT_MS + 1000);
    const holder = await svc.deps.db.transaction();
    try {
      expect(await tryTransactionLock(holder, PRUNE_LOCK)).toBe(true);
      expect(await pruneLoginFailures(svc.deps.db)).toEqual({ removed: 0, skipped: true });
      expect(await remaining([email])).toEqual([email]);
    } finally {
      await holder.rollback();
    }
    expect((await pruneLoginFailures(svc.deps.db)).removed).toBeGreaterThanOrEqual(1);
    expect(await remaining([email])).toEqual([]);
  });

  it('when the schedule is started, then it prunes on its interval until stopped', async () => {
    const email = uniqueEmail('stale');
    await failTimes(1, email);
    await backdate(email, LOCKOUT_MS + 1000);
    const stop = startLoginFailurePrune(svc.deps.db, svc.deps.logger, { intervalMs: 1_000, batchSize: 100 });
    try {
      await waitFor(async () => (await remaining([email])).length === 0, { timeoutMs: 5_000 });
    } finally {
      await stop();
    }
  });

  it("when the service's background work is started and stopped, then it starts with the default settings and stops cleanly", async () => {
    const stop = await svc.startJobs();
    await expect(stop()).resolves.toBeUndefined();
  });
});
