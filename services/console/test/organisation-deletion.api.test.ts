import request from 'supertest';
import { PLATFORM_EVENTS } from '@platform/events';
import { assertMatchesOpenApi, waitFor } from '@platform/testkit';
import { ROLES } from '../src/access/roles';
import { openapi } from '../src/openapi';
import {
  keyCheckedApp,
  keyHeaders,
  orgWithRoles,
  published,
  startConsole,
  type Console,
  type SignedIn,
} from './support/console-harness';

let svc: Console;
beforeAll(async () => {
  svc = await startConsole();
});
afterAll(() => svc.close());

const newProject = async (orgId: string, owner: SignedIn) =>
  (
    await request(svc.app)
      .post(`/v1/organisations/${orgId}/projects`)
      .set(owner.auth)
      .send({ name: `p-${Math.random().toString(36).slice(2)}` })
  ).body as { id: string; organisationId: string; key: { publicKey: string; secretKey: string } };

const listOf = async (member: SignedIn) =>
  ((await request(svc.app).get('/v1/organisations').set(member.auth)).body.organisations as { id: string }[]).map(
    (o) => o.id,
  );

describe('deleting an organisation', () => {
  it('when the owner deletes it, then every key stops at once, each project is erased, the acts are audited and it leaves every list; another organisation is untouched', async () => {
    const org = await orgWithRoles(svc);
    const other = await orgWithRoles(svc);
    const first = await newProject(org.id, org.owner);
    const second = await newProject(org.id, org.owner);
    const kept = await newProject(other.id, other.owner);
    const app = keyCheckedApp(svc);
    for (const p of [first, second, kept]) await request(app).get('/v1/ping').set(keyHeaders(p, p.key)).expect(200);

    await request(svc.app)
      .delete(`/v1/organisations/${org.id}`)
      .set({ ...org.owner.auth, 'user-agent': 'deletion-test/1.0' })
      .expect(204);

    svc.deps.directory.clearCache();
    for (const p of [first, second]) await request(app).get('/v1/ping').set(keyHeaders(p, p.key)).expect(401);
    await request(app).get('/v1/ping').set(keyHeaders(kept, kept.key)).expect(200);

    for (const p of [first, second]) {
      const erasure = await waitFor(() =>
        published.find((e) => e.type === PLATFORM_EVENTS.projectErasureRequested && e.projectId === p.id),
      );
      expect(erasure.data).toMatchObject({ tenantId: org.id, projectId: p.id });
    }
    expect(published.some((e) => e.type === PLATFORM_EVENTS.projectErasureRequested && e.projectId === kept.id)).toBe(
      false,
    );

    const entries = await svc.deps
      .db('audit_entries')
      .where({ tenant_id: org.id })
      .whereIn('action', ['organisation.delete', 'project.delete'])
      .select('action', 'project_id', 'actor_id', 'source', 'outcome', 'user_agent');
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'organisation.delete', actor_id: org.owner.userId, source: 'console' }),
        expect.objectContaining({ action: 'project.delete', project_id: first.id, outcome: 'success' }),
        expect.objectContaining({ action: 'project.delete', project_id: second.id, user_agent: 'deletion-test/1.0' }),
      ]),
    );
    expect(entries).toHaveLength(3);

    for (const role of ROLES) {
      expect(await listOf(org.as[role])).not.toContain(org.id);
      await request(svc.app).get(`/v1/organisations/${org.id}`).set(org.as[role].auth).expect(404);
    }
    expect(await listOf(other.owner)).toContain(other.id);
    await request(svc.app).get(`/v1/organisations/${other.id}/projects/${kept.id}`).set(other.owner.auth).expect(200);
  });

  it('when the owner of organisation B deletes organisation A, then it is 404 and A is untouched', async () => {
    const a = await orgWithRoles(svc);
    const b = await orgWithRoles(svc);
    const project = await newProject(a.id, a.owner);
    const res = await request(svc.app).delete(`/v1/organisations/${a.id}`).set(b.owner.auth);
    expect(res.status).toBe(404);
    assertMatchesOpenApi(openapi, res);
    expect(await listOf(a.owner)).toContain(a.id);
    svc.deps.directory.clearCache();
    await request(keyCheckedApp(svc)).get('/v1/ping').set(keyHeaders(project, project.key)).expect(200);
  });

  it('when an organisation is deleted twice, then the second time is 404', async () => {
    const org = await orgWithRoles(svc);
    await request(svc.app).delete(`/v1/organisations/${org.id}`).set(org.owner.auth).expect(204);
    await request(svc.app).delete(`/v1/organisations/${org.id}`).set(org.owner.auth).expect(404);
  });
});
