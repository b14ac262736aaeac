import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenHttp } from '@platform/http';
import { requestFrom, type TestProject, type TestService } from '@platform/testkit';
import { startAuth, uniqueEmail } from './support/auth-test-service';

/** Real sockets from several loopback addresses into a dual-stack listener: the service sees `::ffff:127.0.0.x`. */
async function serveDualStack(svc: TestService): Promise<{ server: Server; port: number }> {
  const server = await listenHttp(svc.app, 0, '::');
  return { server, port: (server.address() as AddressInfo).port };
}

const login = (port: number, from: string, project: TestProject, extra: Record<string, string> = {}) =>
  requestFrom({
    port,
    localAddress: from,
    method: 'POST',
    path: '/v1/login',
    headers: { ...project.headers, ...extra },
    body: { email: uniqueEmail('flood'), password: 'wrong password' },
  });

describe('per-address limits of sign-in, against a dual-stack listener', () => {
  let svc: TestService;
  let server: Server;
  let port: number;
  let first: TestProject;
  let second: TestProject;

  beforeAll(async () => {
    svc = await startAuth({ AUTH_RATE_LIMIT_PER_IP: '3', AUTH_RATE_LIMIT_WINDOW_MS: '60000' });
    ({ server, port } = await serveDualStack(svc));
    first = await svc.createProject();
    second = await svc.createProject();
  });
  afterAll(async () => {
    server.close();
    await svc.close();
  });

  it('when one IPv4 address floods sign-in, then another address of the same project still signs in', async () => {
    for (let i = 0; i < 3; i++) expect((await login(port, '127.0.0.2', first)).status).toBe(401);
    expect((await login(port, '127.0.0.2', first)).status).toBe(429);
    expect((await login(port, '127.0.0.3', first)).status).toBe(401);
  });

  it("when one project's sign-ins are used up from an address, then another project's from that address are not", async () => {
    for (let i = 0; i < 4; i++) await login(port, '127.0.0.4', first);
    expect((await login(port, '127.0.0.4', first)).status).toBe(429);
    expect((await login(port, '127.0.0.4', second)).status).toBe(401);
  });
});

describe('per-address limits behind a trusted proxy', () => {
  let svc: TestService;
  let server: Server;
  let port: number;
  let project: TestProject;

  beforeAll(async () => {
    svc = await startAuth({ AUTH_RATE_LIMIT_PER_IP: '3', AUTH_RATE_LIMIT_WINDOW_MS: '60000', TRUST_PROXY: 'loopback' });
    ({ server, port } = await serveDualStack(svc));
    project = await svc.createProject();
  });
  afterAll(async () => {
    server.close();
    await svc.close();
  });

  it('when one forwarded client floods sign-in, then another client behind the same proxy still signs in', async () => {
    const flooder = { 'x-forwarded-for': '203.0.113.5' };
    for (let i = 0; i < 3; i++) expect((await login(port, '127.0.0.2', project, flooder)).status).toBe(401);
    expect((await login(port, '127.0.0.2', project, flooder)).status).toBe(429);
    expect((await login(port, '127.0.0.2', project, { 'x-forwarded-for': '203.0.113.6' })).status).toBe(401);
    expect((await login(port, '127.0.0.2', project, { 'x-forwarded-for': '::ffff:203.0.113.5' })).status).toBe(429);
  });

  it('when forwarded IPv6 clients share a /64, then they share an allowance, and another /64 has its own', async () => {
    for (let i = 0; i < 3; i++) {
      await login(port, '127.0.0.3', project, { 'x-forwarded-for': `2001:db8:5:6::${i + 1}` });
    }
    expect((await login(port, '127.0.0.3', project, { 'x-forwarded-for': '2001:db8:5:6::99' })).status).toBe(429);
    expect((await login(port, '127.0.0.3', project, { 'x-forwarded-for': '2001:db8:5:7::1' })).status).toBe(401);
  });
});
