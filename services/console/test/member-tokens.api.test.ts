import jwt from 'jsonwebtoken';
import request from 'supertest';
import { assertMatchesOpenApi, testJwtKeys } from '@platform/testkit';
import { openapi } from '../src/openapi';
import { orgWithRoles, startConsole, type Console } from './support/console-harness';

let svc: Console;

beforeAll(async () => {
  svc = await startConsole();
});
afterAll(() => svc.close());

describe('member tokens', () => {
  it("when a member takes a token for a project, then it is the contract's: RS256 with the platform key, audience-bound, the member's role, at most 5 minutes", async () => {
    const org = await orgWithRoles(svc);
    const project = (
      await request(svc.app).post(`/v1/organisations/${org.id}/projects`).set(org.owner.auth).send({ name: 'p' })
    ).body;
    const res = await request(svc.app)
      .post(`/v1/organisations/${org.id}/projects/${project.id}/member-token`)
      .set(org.as.viewer.auth);
    expect(res.status).toBe(201);
    assertMatchesOpenApi(openapi, res);
    const claims = jwt.verify(res.body.token, testJwtKeys().publicKey, {
      algorithms: ['RS256'],
      issuer: 'platform-console',
      audience: 'platform-services',
    }) as Record<string, unknown>;
    expect(claims).toMatchObject({
      typ: 'member',
      sub: org.as.viewer.userId,
      email: org.as.viewer.email,
      tid: org.id,
      pid: project.id,
      role: 'viewer',
    });
    expect((claims.exp as number) - (claims.iat as number)).toBeLessThanOrEqual(300);
    expect(res.body).toMatchObject({ role: 'viewer', organisationId: org.id, projectId: project.id });
  });

  it('when the project is deleted, then no member token is issued for it', async () => {
    const org = await orgWithRoles(svc);
    const project = (
      await request(svc.app).post(`/v1/organisations/${org.id}/projects`).set(org.owner.auth).send({ name: 'gone' })
    ).body;
    await request(svc.app).delete(`/v1/organisations/${org.id}/projects/${project.id}`).set(org.owner.auth).expect(202);
    const res = await request(svc.app)
      .post(`/v1/organisations/${org.id}/projects/${project.id}/member-token`)
      .set(org.owner.auth);
    expect(res.status).toBe(404);
  });
});
