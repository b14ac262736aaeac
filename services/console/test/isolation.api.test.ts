import request from 'supertest';
import { assertMatchesOpenApi } from '@platform/testkit';
import { openapi } from '../src/openapi';
import { orgWithRoles, startConsole, type Console, type Org } from './support/console-harness';

let svc: Console;
let a: Org;
let b: Org;
let aProject: { id: string; key: { id: string } };
let aInvitation: string;
let bProject: { id: string };

beforeAll(async () => {
  svc = await startConsole();
  a = await orgWithRoles(svc);
  b = await orgWithRoles(svc);
  aProject = (await request(svc.app).post(`/v1/organisations/${a.id}/projects`).set(a.owner.auth).send({ name: 'a1' }))
    .body;
  bProject = (await request(svc.app).post(`/v1/organisations/${b.id}/projects`).set(b.owner.auth).send({ name: 'b1' }))
    .body;
  aInvitation = (
    await request(svc.app)
      .post(`/v1/organisations/${a.id}/invitations`)
      .set(a.owner.auth)
      .send({ email: 'someone@example.com', role: 'viewer' })
  ).body.id;
});
afterAll(() => svc.close());

const app = () => request(svc.app);

describe("a member of organisation B and organisation A's things", () => {
  /** Every endpoint that names an organisation, pointed at A's. */
  const throughA: [string, () => request.Test][] = [
    ['get organisation', () => app().get(`/v1/organisations/${a.id}`)],
    ['rename organisation', () => app().patch(`/v1/organisations/${a.id}`).send({ name: 'Mine now' })],
    ['list members', () => app().get(`/v1/organisations/${a.id}/members`)],
    [
      'change a role',
      () => app().patch(`/v1/organisations/${a.id}/members/${a.as.viewer.userId}`).send({ role: 'admin' }),
    ],
    ['remove a member', () => app().delete(`/v1/organisations/${a.id}/members/${a.as.viewer.userId}`)],
    [
      'invite',
      () => app().post(`/v1/organisations/${a.id}/invitations`).send({ email: 'x@example.com', role: 'admin' }),
    ],
    ['list invitations', () => app().get(`/v1/organisations/${a.id}/invitations`)],
    ['revoke an invitation', () => app().delete(`/v1/organisations/${a.id}/invitations/${aInvitation}`)],
    ['create a project', () => app().post(`/v1/organisations/${a.id}/projects`).send({ name: 'sneaky' })],
    ['list projects', () => app().get(`/v1/organisations/${a.id}/projects`)],
    ['get a project', () => app().get(`/v1/organisations/${a.id}/projects/${aProject.id}`)],
    ['rename a project', () => app().patch(`/v1/organisations/${a.id}/projects/${aProject.id}`).send({ name: 'x' })],
    ['delete a project', () => app().delete(`/v1/organisations/${a.id}/projects/${aProject.id}`)],
    ['list keys', () => app().get(`/v1/organisations/${a.id}/projects/${aProject.id}/keys`)],
    ['create a key', () => app().post(`/v1/organisations/${a.id}/projects/${aProject.id}/keys`).send({ name: 'x' })],
    [
      'rotate a key',
      () => app().post(`/v1/organisations/${a.id}/projects/${aProject.id}/keys/${aProject.key.id}/rotate`).send({}),
    ],
    ['revoke a key', () => app().delete(`/v1/organisations/${a.id}/projects/${aProject.id}/keys/${aProject.key.id}`)],
    ['read settings', () => app().get(`/v1/organisations/${a.id}/projects/${aProject.id}/settings`)],
    [
      'write settings',
      () =>
        app()
          .patch(`/v1/organisations/${a.id}/projects/${aProject.id}/settings`)
          .send({ appUrl: 'https://evil.example' }),
    ],
    ['take a member token', () => app().post(`/v1/organisations/${a.id}/projects/${aProject.id}/member-token`)],
    ['read the audit log', () => app().get(`/v1/organisations/${a.id}/audit`)],
    [
      'export the audit log',
      () => app().get(`/v1/organisations/${a.id}/audit/export?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`),
    ],
  ];

  it.each(throughA)("when B's owner tries to %s of A, then it is 404 as if A did not exist", async (_name, call) => {
    const res = await call().set(b.owner.auth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    assertMatchesOpenApi(openapi, res);
  });

  /** A's project and key reached through B's organisation (where B's owner holds every right). */
  const throughB: [string, () => request.Test][] = [
    ['get', () => app().get(`/v1/organisations/${b.id}/projects/${aProject.id}`)],
    ['rename', () => app().patch(`/v1/organisations/${b.id}/projects/${aProject.id}`).send({ name: 'x' })],
    ['delete', () => app().delete(`/v1/organisations/${b.id}/projects/${aProject.id}`)],
    ['list keys', () => app().get(`/v1/organisations/${b.id}/projects/${aProject.id}/keys`)],
    ['create a key', () => app().post(`/v1/organisations/${b.id}/projects/${aProject.id}/keys`).send({ name: 'x' })],
    [
      'rotate a key',
      () => app().post(`/v1/organisations/${b.id}/projects/${aProject.id}/keys/${aProject.key.id}/rotate`).send({}),
    ],
    ['revoke a key', () => app().delete(`/v1/organisations/${b.id}/projects/${aProject.id}/keys/${aProject.key.id}`)],
    [
      "revoke A's key in B's project",
      () => app().delete(`/v1/organisations/${b.id}/projects/${bProject.id}/keys/${aProject.key.id}`),
    ],
    ['read settings', () => app().get(`/v1/organisations/${b.id}/projects/${aProject.id}/settings`)],
    [
      'write settings',
      () =>
        app().patch(`/v1/organisations/${b.id}/projects/${aProject.id}/settings`).send({ appUrl: 'https://x.example' }),
    ],
    ['take a member token', () => app().post(`/v1/organisations/${b.id}/projects/${aProject.id}/member-token`)],
    ['revoke an invitation', () => app().delete(`/v1/organisations/${b.id}/invitations/${aInvitation}`)],
    [
      'change a role',
      () => app().patch(`/v1/organisations/${b.id}/members/${a.as.viewer.userId}`).send({ role: 'admin' }),
    ],
    ['remove a member', () => app().delete(`/v1/organisations/${b.id}/members/${a.as.viewer.userId}`)],
  ];

  it.each(throughB)(
    "when B's owner tries to %s A's project through B's organisation, then it is 404",
    async (_name, call) => {
      const res = await call().set(b.owner.auth);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    },
  );

  it("when B's members list their organisations, projects and audit log, then nothing of A is in them", async () => {
    const mine = await app().get('/v1/organisations').set(b.owner.auth);
    expect(mine.body.organisations.map((o: { id: string }) => o.id)).toEqual([b.id]);
    const projects = await app().get(`/v1/organisations/${b.id}/projects`).set(b.owner.auth);
    expect(projects.body.projects.map((p: { id: string }) => p.id)).toEqual([bProject.id]);
    const audit = await app().get(`/v1/organisations/${b.id}/audit?limit=200`).set(b.owner.auth);
    expect(audit.body.entries.length).toBeGreaterThan(0);
    expect(audit.body.entries.every((e: { organisationId: string }) => e.organisationId === b.id)).toBe(true);
    const me = await app().get('/v1/me').set(b.owner.auth);
    expect(me.body.organisations.map((o: { id: string }) => o.id)).toEqual([b.id]);
  });

  it("after all of that, A's project, keys, members and settings are as they were", async () => {
    const project = await app().get(`/v1/organisations/${a.id}/projects/${aProject.id}`).set(a.owner.auth);
    expect(project.body).toMatchObject({ name: 'a1', status: 'active', settings: {} });
    const keys = await app().get(`/v1/organisations/${a.id}/projects/${aProject.id}/keys`).set(a.owner.auth);
    expect(keys.body.keys).toHaveLength(1);
    expect(keys.body.keys[0].status).toBe('active');
    const members = await app().get(`/v1/organisations/${a.id}/members`).set(a.owner.auth);
    expect(members.body.members).toHaveLength(4);
    const org = await app().get(`/v1/organisations/${a.id}`).set(a.owner.auth);
    expect(org.body.name).toBe('Acme');
  });
});
