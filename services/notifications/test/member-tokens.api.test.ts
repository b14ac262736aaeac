import request from 'supertest';
import { PLATFORM_EVENTS, type EventEnvelope, type MemberActionData } from '@platform/events';
import { createTestService, describeMemberTokens, memberToken, waitFor, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';

describeMemberTokens({
  service: 'notifications',
  start: () => createTestService(notificationsService),
  write: (marker) => ({
    method: 'post',
    path: '/v1/notifications',
    body: { title: marker, message: 'From the console' },
  }),
  writeStatus: 201,
  writeRoute: '/v1/notifications',
  read: () => '/v1/notifications',
});

describe('notifications: member actions', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService(notificationsService);
  });
  afterAll(() => svc.close());

  const actionsOf = async (memberId: string) => {
    const rows: { envelope: EventEnvelope<MemberActionData> }[] = await svc.deps
      .db('outbox')
      .where('type', PLATFORM_EVENTS.memberAction)
      .whereRaw(`envelope->'data'->>'memberId' = ?`, [memberId])
      .orderBy('created_at')
      .select('envelope');
    return rows.map((r) => r.envelope.data);
  };

  it('when a member writes to a route with an id and a query, then the action names the route pattern, without the id or the query', async () => {
    const project = await svc.createProject();
    const created = await request(svc.app)
      .post('/v1/notifications')
      .set(project.headers)
      .send({ title: 'Hello', message: 'All' });
    const token = memberToken(project, { role: 'admin', memberId: 'member-pattern' });
    const read = await request(svc.app)
      .patch(`/v1/notifications/${created.body.id}/read?userId=user-7`)
      .set('authorization', `Bearer ${token}`);
    expect(read.status).toBe(200);
    const [action] = await waitFor(() => actionsOf('member-pattern').then((a) => (a.length ? a : undefined)));
    expect(action).toMatchObject({ method: 'PATCH', route: '/v1/notifications/:id/read', status: 200, role: 'admin' });
    expect(JSON.stringify(action)).not.toContain(created.body.id);
    expect(JSON.stringify(action)).not.toContain('user-7');
  });

  it("when a viewer's write is refused, then the refused attempt is recorded with its 403", async () => {
    const project = await svc.createProject();
    const token = memberToken(project, { role: 'viewer', memberId: 'member-viewer' });
    const res = await request(svc.app)
      .post('/v1/notifications')
      .set('authorization', `Bearer ${token}`)
      .send({ title: 'No', message: 'No' });
    expect(res.status).toBe(403);
    const [action] = await waitFor(() => actionsOf('member-viewer').then((a) => (a.length ? a : undefined)));
    expect(action).toMatchObject({ method: 'POST', route: '/v1/notifications', status: 403, role: 'viewer' });
  });
});

describe('notifications: member tokens of a suspended organisation or a deleted project', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService(notificationsService);
  });
  afterAll(() => svc.close());

  it("when the project's organisation is suspended, then its member token is refused with 403 and another organisation's is not", async () => {
    const project = await svc.createProject();
    const other = await svc.createProject();
    await svc.deps
      .platformDb('tenants')
      .where({ id: project.tenantId })
      .update({ suspended_at: new Date(), suspension_reason: 'Unpaid' });
    svc.deps.directory.clearCache();
    const refused = await request(svc.app)
      .get('/v1/notifications')
      .set('authorization', `Bearer ${memberToken(project, { role: 'owner' })}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Organisation suspended');
    const allowed = await request(svc.app)
      .get('/v1/notifications')
      .set('authorization', `Bearer ${memberToken(other, { role: 'owner' })}`);
    expect(allowed.status).toBe(200);
  });

  it('when the project is deleted, then its member token is refused with 401 and a sibling project of the organisation is not', async () => {
    const project = await svc.createProject();
    const sibling = await svc.createProject(undefined, project);
    await svc.deps.platformDb('projects').where({ id: project.projectId }).update({ deleted_at: new Date() });
    svc.deps.directory.clearCache();
    const refused = await request(svc.app)
      .post('/v1/notifications')
      .set('authorization', `Bearer ${memberToken(project, { role: 'owner' })}`)
      .send({ title: 'Gone', message: 'Gone' });
    expect(refused.status).toBe(401);
    const allowed = await request(svc.app)
      .get('/v1/notifications')
      .set('authorization', `Bearer ${memberToken(sibling, { role: 'owner' })}`);
    expect(allowed.status).toBe(200);
  });
});
