import request from 'supertest';
import { assertMatchesOpenApi } from '@platform/testkit';
import { ROLES, type Role } from '../src/access/roles';
import { openapi } from '../src/openapi';
import {
  joinAs,
  orgWithRoles,
  signIn,
  startConsole,
  type Console,
  type Org,
  type SignedIn,
} from './support/console-harness';

let svc: Console;
let org: Org;

beforeAll(async () => {
  svc = await startConsole();
  org = await orgWithRoles(svc);
});
afterAll(() => svc.close());

interface Target {
  projectId: string;
  keyId: string;
  memberId: string;
  invitationId: string;
}

/** Fresh things to act on, made by the owner, so that every cell of the matrix starts alike. */
async function freshTarget(): Promise<Target> {
  const owner = org.owner;
  const project = await request(svc.app)
    .post(`/v1/organisations/${org.id}/projects`)
    .set(owner.auth)
    .send({ name: `p-${Math.random().toString(36).slice(2)}` });
  const member = await signIn(svc);
  await joinAs(svc, org.id, owner, member, 'viewer');
  const invitation = await request(svc.app)
    .post(`/v1/organisations/${org.id}/invitations`)
    .set(owner.auth)
    .send({ email: `x-${Math.random().toString(36).slice(2)}@example.com`, role: 'viewer' });
  return {
    projectId: project.body.id,
    keyId: project.body.key.id,
    memberId: member.userId,
    invitationId: invitation.body.id,
  };
}

type Call = (t: Target, o: string) => request.Test;
const app = () => request(svc.app);

/** Every organisation endpoint, the weakest role allowed, and the status it answers then. */
const MATRIX: [string, Role, number, Call][] = [
  ['get organisation', 'viewer', 200, (_, o) => app().get(`/v1/organisations/${o}`)],
  ['rename organisation', 'owner', 200, (_, o) => app().patch(`/v1/organisations/${o}`).send({ name: 'Renamed' })],
  ['list members', 'viewer', 200, (_, o) => app().get(`/v1/organisations/${o}/members`)],
  [
    'change a role',
    'admin',
    200,
    (t, o) => app().patch(`/v1/organisations/${o}/members/${t.memberId}`).send({ role: 'developer' }),
  ],
  ['remove a member', 'admin', 204, (t, o) => app().delete(`/v1/organisations/${o}/members/${t.memberId}`)],
  [
    'invite',
    'admin',
    201,
    (_, o) =>
      app()
        .post(`/v1/organisations/${o}/invitations`)
        .send({ email: `i-${Math.random().toString(36).slice(2)}@example.com`, role: 'developer' }),
  ],
  ['list invitations', 'admin', 200, (_, o) => app().get(`/v1/organisations/${o}/invitations`)],
  [
    'revoke an invitation',
    'admin',
    204,
    (t, o) => app().delete(`/v1/organisations/${o}/invitations/${t.invitationId}`),
  ],
  [
    'create a project',
    'admin',
    201,
    (_, o) =>
      app()
        .post(`/v1/organisations/${o}/projects`)
        .send({ name: `n-${Date.now()}-${Math.random()}` }),
  ],
  ['list projects', 'viewer', 200, (_, o) => app().get(`/v1/organisations/${o}/projects`)],
  ['get a project', 'viewer', 200, (t, o) => app().get(`/v1/organisations/${o}/projects/${t.projectId}`)],
  [
    'rename a project',
    'admin',
    200,
    (t, o) =>
      app()
        .patch(`/v1/organisations/${o}/projects/${t.projectId}`)
        .send({ name: `r-${Math.random()}` }),
  ],
  ['delete a project', 'admin', 202, (t, o) => app().delete(`/v1/organisations/${o}/projects/${t.projectId}`)],
  ['list keys', 'developer', 200, (t, o) => app().get(`/v1/organisations/${o}/projects/${t.projectId}/keys`)],
  [
    'create a key',
    'admin',
    201,
    (t, o) => app().post(`/v1/organisations/${o}/projects/${t.projectId}/keys`).send({ name: 'ci' }),
  ],
  [
    'rotate a key',
    'admin',
    201,
    (t, o) => app().post(`/v1/organisations/${o}/projects/${t.projectId}/keys/${t.keyId}/rotate`).send({}),
  ],
  [
    'revoke a key',
    'admin',
    200,
    (t, o) => app().delete(`/v1/organisations/${o}/projects/${t.projectId}/keys/${t.keyId}`),
  ],
  ['read settings', 'viewer', 200, (t, o) => app().get(`/v1/organisations/${o}/projects/${t.projectId}/settings`)],
  [
    'write settings',
    'developer',
    200,
    (t, o) =>
      app().patch(`/v1/organisations/${o}/projects/${t.projectId}/settings`).send({ requireEmailVerification: true }),
  ],
  [
    'take a member token',
    'viewer',
    201,
    (t, o) => app().post(`/v1/organisations/${o}/projects/${t.projectId}/member-token`),
  ],
  ['read the audit log', 'admin', 200, (_, o) => app().get(`/v1/organisations/${o}/audit`)],
  [
    'export the audit log',
    'admin',
    200,
    (_, o) => app().get(`/v1/organisations/${o}/audit/export?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`),
  ],
];

const RANK: Record<Role, number> = { viewer: 0, developer: 1, admin: 2, owner: 3 };

describe('the role matrix', () => {
  const cells = MATRIX.flatMap(([name, weakest, status, call]) =>
    ROLES.map((role) => [name, role, RANK[role] >= RANK[weakest], status, call] as const),
  );

  it.each(cells)('%s as %s: allowed %s', async (_name, role, allowed, status, call) => {
    const target = await freshTarget();
    const member: SignedIn = org.as[role];
    const res = await call(target, org.id).set(member.auth);
    if (allowed) {
      expect(res.status).toBe(status);
    } else {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    if (res.type === 'application/json') assertMatchesOpenApi(openapi, res);
  });
});

// Deleting the organisation ends it, so each cell gets an organisation of its own.
describe('the role matrix: deleting the organisation', () => {
  it.each(ROLES)('delete the organisation as %s: allowed only for the owner', async (role) => {
    const own = await orgWithRoles(svc);
    const res = await request(svc.app).delete(`/v1/organisations/${own.id}`).set(own.as[role].auth);
    if (role === 'owner') {
      expect(res.status).toBe(204);
    } else {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      assertMatchesOpenApi(openapi, res);
      await request(svc.app).get(`/v1/organisations/${own.id}`).set(own.as[role].auth).expect(200);
    }
  });
});

describe('the rules about owners', () => {
  it('when an admin changes, removes or invites an owner, then it is refused with 403', async () => {
    const { as, id } = await orgWithRoles(svc);
    const toOwner = await request(svc.app)
      .patch(`/v1/organisations/${id}/members/${as.developer.userId}`)
      .set(as.admin.auth)
      .send({ role: 'owner' });
    expect(toOwner.status).toBe(403);
    const demote = await request(svc.app)
      .patch(`/v1/organisations/${id}/members/${as.owner.userId}`)
      .set(as.admin.auth)
      .send({ role: 'viewer' });
    expect(demote.status).toBe(403);
    const remove = await request(svc.app)
      .delete(`/v1/organisations/${id}/members/${as.owner.userId}`)
      .set(as.admin.auth);
    expect(remove.status).toBe(403);
    const invite = await request(svc.app)
      .post(`/v1/organisations/${id}/invitations`)
      .set(as.admin.auth)
      .send({ email: 'boss@example.com', role: 'owner' });
    expect(invite.status).toBe(403);
    expect(invite.body.error.code).toBe('FORBIDDEN');
  });

  it('when the last owner leaves or steps down, then it is a 409; with a second owner it is allowed', async () => {
    const { as, id } = await orgWithRoles(svc);
    const leave = await request(svc.app)
      .delete(`/v1/organisations/${id}/members/${as.owner.userId}`)
      .set(as.owner.auth);
    expect(leave.status).toBe(409);
    assertMatchesOpenApi(openapi, leave);
    const stepDown = await request(svc.app)
      .patch(`/v1/organisations/${id}/members/${as.owner.userId}`)
      .set(as.owner.auth)
      .send({ role: 'admin' });
    expect(stepDown.status).toBe(409);

    await request(svc.app)
      .patch(`/v1/organisations/${id}/members/${as.admin.userId}`)
      .set(as.owner.auth)
      .send({ role: 'owner' })
      .expect(200);
    await request(svc.app).delete(`/v1/organisations/${id}/members/${as.owner.userId}`).set(as.owner.auth).expect(204);
  });

  it('when a viewer leaves, then it is allowed (anyone may leave), but a viewer removing another is 403', async () => {
    const { as, id } = await orgWithRoles(svc);
    const other = await request(svc.app)
      .delete(`/v1/organisations/${id}/members/${as.developer.userId}`)
      .set(as.viewer.auth);
    expect(other.status).toBe(403);
    await request(svc.app)
      .delete(`/v1/organisations/${id}/members/${as.viewer.userId}`)
      .set(as.viewer.auth)
      .expect(204);
    const after = await request(svc.app).get(`/v1/organisations/${id}`).set(as.viewer.auth);
    expect(after.status).toBe(404);
  });

  it('when a member who is not an operator calls an operator route, then it is 403', async () => {
    const res = await request(svc.app).get('/v1/operator/organisations').set(org.owner.auth);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});
