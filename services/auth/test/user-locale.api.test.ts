import { AUTH_EVENTS, type AuthEmailData, type UserRegisteredData } from '@platform/events';
import type { TestProject, TestService } from '@platform/testkit';
import { apiOf, outboxEvents, PASSWORD, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject({ requireEmailVerification: true });
});
afterAll(() => svc.close());

async function register(body: object, headers: Record<string, string> = {}) {
  const res = await api.post('/register', { headers: { ...project.headers, ...headers }, body });
  expect(res.status).toBe(201);
  return res.body.user as { id: string; email: string; metadata: Record<string, unknown> };
}

const eventsOf = async <T>(userId: string, type: string) =>
  (await outboxEvents<T & { userId: string }>(svc.deps.db, project, type)).filter((e) => e.data.userId === userId);

describe("the user's locale for auth emails", () => {
  it('when a user registers with an Accept-Language and no metadata.locale, then its preferred tag is kept as metadata.locale and sent with the event', async () => {
    const user = await register(
      { email: uniqueEmail(), password: PASSWORD },
      { 'Accept-Language': 'pt-BR,pt;q=0.9,en;q=0.8' },
    );
    expect(user.metadata).toEqual({ locale: 'pt-BR' });
    const [event] = await eventsOf<UserRegisteredData>(user.id, AUTH_EVENTS.userRegistered);
    expect(event.data).toMatchObject({ locale: 'pt-BR', verification: expect.any(Object) });
  });

  it('when metadata names a locale, then it wins over Accept-Language', async () => {
    const user = await register(
      { email: uniqueEmail(), password: PASSWORD, metadata: { locale: 'de-AT', plan: 'pro' } },
      { 'Accept-Language': 'fr' },
    );
    expect(user.metadata).toEqual({ locale: 'de-AT', plan: 'pro' });
    const [event] = await eventsOf<UserRegisteredData>(user.id, AUTH_EVENTS.userRegistered);
    expect(event.data.locale).toBe('de-AT');
  });

  it('when the user later changes metadata.locale, then password-reset and verification events carry the new locale', async () => {
    const email = uniqueEmail();
    const user = await register({ email, password: PASSWORD });
    expect(user.metadata).toEqual({});
    const login = await api.post('/login', { headers: project.headers, body: { email, password: PASSWORD } });
    const me = await api.patch('/me', {
      headers: project.headers,
      bearer: login.body.accessToken,
      body: { metadata: { locale: 'es' } },
    });
    expect(me.status).toBe(200);
    await api.post('/forgot-password', { headers: project.headers, body: { email } });
    await api.post('/resend-verification', { headers: project.headers, body: { email } });
    const [reset] = await eventsOf<AuthEmailData>(user.id, AUTH_EVENTS.passwordResetRequested);
    const [verify] = await eventsOf<AuthEmailData>(user.id, AUTH_EVENTS.verificationRequested);
    expect(reset.data.locale).toBe('es');
    expect(verify.data.locale).toBe('es');
  });

  it('when neither metadata nor Accept-Language names a usable locale, then the event carries none', async () => {
    const user = await register({ email: uniqueEmail(), password: PASSWORD }, { 'Accept-Language': '*' });
    expect(user.metadata).toEqual({});
    const [event] = await eventsOf<UserRegisteredData>(user.id, AUTH_EVENTS.userRegistered);
    expect(event.data.locale).toBeUndefined();
  });
});
