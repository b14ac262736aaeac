import { AUTH_EVENTS, type EventEnvelope } from '@platform/events';
import { waitFor, type TestProject, type TestService } from '@platform/testkit';
import { apiOf, registerUser, startAuth, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;
const received: EventEnvelope[] = [];

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject({ requireEmailVerification: true });
  await svc.deps.bus.subscribe({
    queue: 'test.auth-events',
    topics: ['auth.#'],
    handler: async (event) => {
      received.push(event);
    },
  });
  svc.deps.relay.start();
});
afterAll(() => svc.close());

describe('event delivery', () => {
  it('when a user registers and asks for emails, then each event reaches the bus and no row of them (they carry tokens) is left in the outbox', async () => {
    const { user } = await registerUser(api, project);
    await api.post('/resend-verification', { headers: project.headers, body: { email: user.email } });
    await api.post('/forgot-password', { headers: project.headers, body: { email: user.email } });
    const mine = () => received.filter((e) => (e.data as { userId?: string }).userId === user.id);
    await waitFor(() => mine().length >= 3);
    expect(
      mine()
        .map((e) => e.type)
        .sort(),
    ).toEqual(
      [AUTH_EVENTS.passwordResetRequested, AUTH_EVENTS.userRegistered, AUTH_EVENTS.verificationRequested].sort(),
    );
    const ids = mine().map((e) => e.id);
    await waitFor(
      async () =>
        (await svc.deps.db('outbox').whereIn('id', ids).count<{ count: number }[]>('id as count'))[0].count === 0,
    );
  });
});
