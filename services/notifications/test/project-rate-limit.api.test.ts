import { createTestService, memberToken, type TestProject, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { api } from './support/notifications-test-service';

// RESOLUTIONS 2: limits are counted per project. Every service's keyed endpoints share the
// mechanism (projectKeys in @platform/tenancy); notifications stands for them here.
let svc: TestService;

beforeAll(async () => {
  svc = await createTestService(notificationsService, { env: { PROJECT_RATE_LIMIT: '2' } });
});
afterAll(() => svc.close());

const list = (headers: Record<string, string>) => api(svc.app, headers).get('/notifications');

describe('per-project rate limit', () => {
  it('when a project passes PROJECT_RATE_LIMIT, then it gets 429 RATE_LIMITED with Retry-After, and another project does not', async () => {
    const a = await svc.createProject();
    const b = await svc.createProject();
    const first = await list(a.headers);
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit']).toMatch(/^limit=2, remaining=1, /);
    expect((await list(a.headers)).status).toBe(200);
    const third = await list(a.headers);
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect((await list(b.headers)).status).toBe(200);
  });

  it("when requests name a project but fail the key check, then they do not spend that project's allowance", async () => {
    const project: TestProject = await svc.createProject();
    for (let i = 0; i < 3; i++) {
      expect((await list({ ...project.headers, 'x-secret-key': 'sk_wrong' })).status).toBe(401);
    }
    expect((await list(project.headers)).status).toBe(200);
    expect((await list(project.headers)).status).toBe(200);
  });
});

describe('per-project rate limit with member tokens', () => {
  it("when a console member calls with a member token, then the calls spend the project's allowance like keyed ones", async () => {
    const project = await svc.createProject();
    const member = { authorization: `Bearer ${memberToken(project, { role: 'viewer' })}` };
    expect((await list(project.headers)).status).toBe(200);
    expect((await list(member)).status).toBe(200);
    expect((await list(member)).status).toBe(429);
    expect((await list(project.headers)).status).toBe(429);
  });
});
