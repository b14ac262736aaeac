import { createHash, randomBytes } from 'node:crypto';
import { sendJson, startHttpStub, waitFor, type HttpStub, type TestProject, type TestService } from '@platform/testkit';
import type { AuthShared } from '../src';
import { apiOf, startAuth, type Api } from './support/auth-test-service';

const SERVICE = 'http://auth.test';
const APP = 'https://app.example.com/auth/done';
const SLOTS = 2;

let svc: TestService<AuthShared>;
let api: Api;
let slowIssuer: HttpStub;
let fastIssuer: HttpStub;
/** Discovery at the slow issuer waits for this while it is set. */
let held: Promise<void> | null = null;
let release = () => undefined as void;

const discoveryOf = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks`,
});

beforeAll(async () => {
  slowIssuer = await startHttpStub(async (req, res) => {
    if (held) await held;
    sendJson(res, 200, discoveryOf(slowIssuer.url));
  });
  fastIssuer = await startHttpStub((req, res) => sendJson(res, 200, discoveryOf(fastIssuer.url)));
  svc = await startAuth({
    AUTH_PUBLIC_URL: SERVICE,
    AUTH_OIDC_ALLOWED_HOSTS: '127.0.0.1',
    AUTH_OIDC_SLOTS_PER_PROJECT: String(SLOTS),
    AUTH_OIDC_TIMEOUT_MS: '30000',
  });
  api = apiOf(svc.app);
});
afterAll(async () => {
  release();
  await svc?.close();
  await slowIssuer?.close();
  await fastIssuer?.close();
});

async function projectWith(issuer: HttpStub): Promise<TestProject> {
  const project = await svc.createProject({ allowedRedirectUrls: [APP] });
  const created = await api.post('/oidc/providers', {
    headers: project.headers,
    body: { name: 'idp', issuer: issuer.url, clientId: 'app-client' },
  });
  expect(created.status).toBe(201);
  return project;
}

const authorize = (project: TestProject) =>
  api.get('/authorize', {
    query: {
      api_key: project.apiKey,
      provider: 'idp',
      redirect_to: APP,
      code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    },
  });

describe("a project's share of calls to identity providers", () => {
  it("when one project's provider hangs, then its calls stop at its share and another project's sign-in goes on", async () => {
    const slow = await projectWith(slowIssuer);
    const fast = await projectWith(fastIssuer);
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hanging = Array.from({ length: SLOTS }, () => authorize(slow));
    await waitFor(() => slowIssuer.requests.length >= SLOTS);

    // The slow project has used its share: one more call is refused at once, not queued.
    const refused = await authorize(slow);
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.location).searchParams.get('error')).toBe('temporarily_unavailable');
    expect(slowIssuer.requests.length).toBe(SLOTS);

    // Another project reaches its own provider meanwhile.
    const other = await authorize(fast);
    expect(other.status).toBe(302);
    expect(new URL(other.headers.location).origin + new URL(other.headers.location).pathname).toBe(
      `${fastIssuer.url}/authorize`,
    );

    release();
    held = null;
    for (const res of await Promise.all(hanging)) {
      expect(res.status).toBe(302);
      expect(res.headers.location.startsWith(`${slowIssuer.url}/authorize?`)).toBe(true);
    }
    // The share is back once the calls ended.
    expect((await authorize(slow)).headers.location.startsWith(`${slowIssuer.url}/authorize?`)).toBe(true);
  });
});
