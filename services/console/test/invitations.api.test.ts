import request from 'supertest';
import { assertMatchesOpenApi } from '@platform/testkit';
import { PLATFORM_EVENTS, SECRET_BEARING_EVENTS } from '@platform/events';
import { sha256Hex } from '@platform/tenancy';
import { openapi } from '../src/openapi';
import {
  invitationToken,
  published,
  signIn,
  startConsole,
  type Console,
  type SignedIn,
} from './support/console-harness';

let svc: Console;
let owner: SignedIn;
let orgId: string;

beforeAll(async () => {
  svc = await startConsole();
  owner = await signIn(svc);
  orgId = (await request(svc.app).post('/v1/organisations').set(owner.auth).send({ name: 'Inviters' })).body.id;
});
afterAll(() => svc.close());

async function invite(email: string, role = 'developer') {
  const res = await request(svc.app)
    .post(`/v1/organisations/${orgId}/invitations`)
    .set(owner.auth)
    .send({ email, role });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, token: await invitationToken(res.body.id) };
}

describe('invitations', () => {
  it('when an invitation is made, then its link goes out for the Mailer (secret-bearing) and only its hash is stored', async () => {
    const invitee = await signIn(svc);
    const res = await request(svc.app)
      .post(`/v1/organisations/${orgId}/invitations`)
      .set(owner.auth)
      .send({ email: invitee.email, role: 'viewer' });
    expect(res.status).toBe(201);
    assertMatchesOpenApi(openapi, res);
    expect(JSON.stringify(res.body)).not.toMatch(/inv_/);
    const token = await invitationToken(res.body.id);
    const event = published.find((e) => (e.data as { invitationId?: string }).invitationId === res.body.id)!;
    expect(event.type).toBe(PLATFORM_EVENTS.invitationCreated);
    expect(SECRET_BEARING_EVENTS.has(event.type)).toBe(true);
    const reserved = await svc.parts.shared.reserved.ensure();
    expect(event).toMatchObject({ tenantId: reserved.tenantId, projectId: reserved.projectId });
    expect(event.data).toMatchObject({ email: invitee.email, role: 'viewer', organisationName: 'Inviters' });
    const stored = await svc.deps.db('invitations').where({ id: res.body.id }).first();
    expect(stored.token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('when an invitation is accepted, then the member joins with its role, and a second use is 410', async () => {
    const invitee = await signIn(svc);
    const { token } = await invite(invitee.email, 'developer');
    const first = await request(svc.app).post('/v1/invitations/accept').set(invitee.auth).send({ token });
    expect(first.status).toBe(200);
    assertMatchesOpenApi(openapi, first);
    expect(first.body).toMatchObject({ organisationId: orgId, member: { userId: invitee.userId, role: 'developer' } });
    const again = await request(svc.app).post('/v1/invitations/accept').set(invitee.auth).send({ token });
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe('GONE');
    const other = await signIn(svc, invitee.email);
    const replay = await request(svc.app).post('/v1/invitations/accept').set(other.auth).send({ token });
    expect(replay.status).toBe(410);
  });

  it('when an invitation has expired, then accepting it is 410 and nobody joins', async () => {
    const invitee = await signIn(svc);
    const { id, token } = await invite(invitee.email);
    await svc.deps
      .db('invitations')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await request(svc.app).post('/v1/invitations/accept').set(invitee.auth).send({ token });
    expect(res.status).toBe(410);
    const members = await request(svc.app).get(`/v1/organisations/${orgId}/members`).set(owner.auth);
    expect(members.body.members.map((m: { userId: string }) => m.userId)).not.toContain(invitee.userId);
    const list = await request(svc.app).get(`/v1/organisations/${orgId}/invitations`).set(owner.auth);
    expect(list.body.invitations.find((i: { id: string }) => i.id === id).status).toBe('expired');
  });

  it('when the invitation lifetime is configured short, then a new invitation expires then', async () => {
    const short = await startConsole({ CONSOLE_INVITATION_TTL_HOURS: '0.01' });
    try {
      const o = await signIn(short);
      const org = (await request(short.app).post('/v1/organisations').set(o.auth).send({ name: 'Short' })).body.id;
      const res = await request(short.app)
        .post(`/v1/organisations/${org}/invitations`)
        .set(o.auth)
        .send({ email: 'soon@example.com', role: 'viewer' });
      const lifetime = Date.parse(res.body.expiresAt) - Date.now();
      expect(lifetime).toBeGreaterThan(30_000);
      expect(lifetime).toBeLessThanOrEqual(36_000);
    } finally {
      await short.close();
    }
  });

  it('when someone signed in with another address uses the link, then it is 403 and the invitation stays usable', async () => {
    const invitee = await signIn(svc);
    const { token } = await invite(invitee.email);
    const stranger = await signIn(svc);
    const res = await request(svc.app).post('/v1/invitations/accept').set(stranger.auth).send({ token });
    expect(res.status).toBe(403);
    await request(svc.app).post('/v1/invitations/accept').set(invitee.auth).send({ token }).expect(200);
  });

  it('when an invitation is revoked, then it cannot be accepted', async () => {
    const invitee = await signIn(svc);
    const { id, token } = await invite(invitee.email);
    await request(svc.app).delete(`/v1/organisations/${orgId}/invitations/${id}`).set(owner.auth).expect(204);
    const res = await request(svc.app).post('/v1/invitations/accept').set(invitee.auth).send({ token });
    expect(res.status).toBe(410);
  });

  it('when the token is made up or malformed, then it is 410 or 400, never a 500', async () => {
    const invitee = await signIn(svc);
    const madeUp = await request(svc.app)
      .post('/v1/invitations/accept')
      .set(invitee.auth)
      .send({ token: 'inv_thisisnotarealtokenatall' });
    expect(madeUp.status).toBe(410);
    const malformed = await request(svc.app).post('/v1/invitations/accept').set(invitee.auth).send({ token: 5 });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when invitations come faster than the configured limit, then the next is 429', async () => {
    const limited = await startConsole({ CONSOLE_INVITATION_LIMIT_PER_HOUR: '2' });
    try {
      const o = await signIn(limited);
      const org = (await request(limited.app).post('/v1/organisations').set(o.auth).send({ name: 'L' })).body.id;
      const send = (n: number) =>
        request(limited.app)
          .post(`/v1/organisations/${org}/invitations`)
          .set(o.auth)
          .send({ email: `n${n}@example.com`, role: 'viewer' });
      expect((await send(1)).status).toBe(201);
      expect((await send(2)).status).toBe(201);
      const third = await send(3);
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
