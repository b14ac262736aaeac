import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createDb } from '@platform/db';
import { grantServiceRole } from '@platform/directory';
import { envelopeOf, PLATFORM_EVENTS, type MemberActionData } from '@platform/events';
import { assertMatchesOpenApi, waitFor } from '@platform/testkit';
import { pruneAudit } from '../src/audit/audit.service';
import { openapi } from '../src/openapi';
import { joinAs, signIn, startConsole, type Console, type SignedIn } from './support/console-harness';

let svc: Console;
let owner: SignedIn;
let orgId: string;

beforeAll(async () => {
  svc = await startConsole();
  owner = await signIn(svc);
  orgId = (await request(svc.app).post('/v1/organisations').set(owner.auth).send({ name: 'Audited' })).body.id;
});
afterAll(() => svc.close());

const entries = async (query = '') =>
  (await request(svc.app).get(`/v1/organisations/${orgId}/audit?limit=200${query}`).set(owner.auth)).body.entries as {
    action: string;
    actor: { id: string; email: string };
    projectId: string | null;
    target: string;
    outcome: string;
    userAgent: string;
    clientAddress: string;
    details: Record<string, unknown>;
  }[];

describe('the audit log', () => {
  it('when members change things, then each change is recorded with who, where, what, outcome and time, and no secret', async () => {
    const app = () => request(svc.app);
    const agent = { 'user-agent': 'audit-test/1.0' };
    const member = await signIn(svc);
    await joinAs(svc, orgId, owner, member, 'viewer');
    await app().patch(`/v1/organisations/${orgId}`).set(owner.auth).set(agent).send({ name: 'Audited Ltd' });
    const project = (
      await app().post(`/v1/organisations/${orgId}/projects`).set(owner.auth).set(agent).send({ name: 'a' })
    ).body;
    await app().patch(`/v1/organisations/${orgId}/projects/${project.id}`).set(owner.auth).send({ name: 'b' });
    const key = (
      await app().post(`/v1/organisations/${orgId}/projects/${project.id}/keys`).set(owner.auth).send({ name: 'ci' })
    ).body;
    const rotated = (
      await app()
        .post(`/v1/organisations/${orgId}/projects/${project.id}/keys/${key.id}/rotate`)
        .set(owner.auth)
        .send({})
    ).body;
    await app().delete(`/v1/organisations/${orgId}/projects/${project.id}/keys/${key.id}`).set(owner.auth);
    await app()
      .patch(`/v1/organisations/${orgId}/projects/${project.id}/settings`)
      .set(owner.auth)
      .send({ appUrl: 'https://a.example' });
    await app().post(`/v1/organisations/${orgId}/projects/${project.id}/member-token`).set(owner.auth);
    await app()
      .patch(`/v1/organisations/${orgId}/members/${member.userId}`)
      .set(owner.auth)
      .send({ role: 'developer' });
    await app().delete(`/v1/organisations/${orgId}/members/${member.userId}`).set(owner.auth);
    await app().delete(`/v1/organisations/${orgId}/projects/${project.id}`).set(owner.auth);
    // A refused attempt is recorded too.
    const viewer = await signIn(svc);
    await joinAs(svc, orgId, owner, viewer, 'viewer');
    await app().post(`/v1/organisations/${orgId}/projects`).set(viewer.auth).send({ name: 'nope' }).expect(403);

    const log = await entries();
    const actions = log.map((e) => e.action).reverse();
    expect(actions).toEqual([
      'organisation.create',
      'invitation.create',
      'invitation.accept',
      'organisation.rename',
      'project.create',
      'project.rename',
      'key.create',
      'key.rotate',
      'key.revoke',
      'settings.update',
      'member-token.issue',
      'member.role.change',
      'member.remove',
      'project.delete',
      'invitation.create',
      'invitation.accept',
      'projects.manage',
    ]);
    const rename = log.find((e) => e.action === 'organisation.rename')!;
    expect(rename).toMatchObject({
      actor: { id: owner.userId, email: owner.email },
      outcome: 'success',
      userAgent: 'audit-test/1.0',
    });
    expect(rename.clientAddress).toBeTruthy();
    expect(log.find((e) => e.action === 'projects.manage')).toMatchObject({
      outcome: 'denied',
      actor: { id: viewer.userId },
    });
    const everything = JSON.stringify(log);
    for (const secret of [project.key.secretKey, key.secretKey, rotated.key.secretKey])
      expect(everything).not.toContain(secret);
  });

  it('when the log is read with filters and a cursor, then pages follow each other without gaps or repeats', async () => {
    const project = (
      await request(svc.app).post(`/v1/organisations/${orgId}/projects`).set(owner.auth).send({ name: 'paged' })
    ).body;
    for (let i = 0; i < 5; i++)
      await request(svc.app)
        .patch(`/v1/organisations/${orgId}/projects/${project.id}/settings`)
        .set(owner.auth)
        .send({ requireEmailVerification: i % 2 === 0 });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/v1/organisations/${orgId}/audit?limit=2&projectId=${project.id}&action=settings.update${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await request(svc.app).get(query).set(owner.auth);
      expect(page.status).toBe(200);
      assertMatchesOpenApi(openapi, page);
      seen.push(...page.body.entries.map((e: { id: string }) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const byActor = await entries(`&actor=${encodeURIComponent(owner.email)}&projectId=${project.id}`);
    expect(byActor).toHaveLength(6);
    const future = await entries(`&from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`);
    expect(future).toEqual([]);
    const bad = await request(svc.app).get(`/v1/organisations/${orgId}/audit?cursor=zzz`).set(owner.auth);
    expect(bad.status).toBe(400);
  });

  it('when a time range is exported, then it is NDJSON of those entries, oldest first', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const res = await request(svc.app)
      .get(`/v1/organisations/${orgId}/audit/export?from=${from}&to=${to}`)
      .set(owner.auth)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = (res.body as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe((await entries()).length);
    expect(lines[0].action).toBe('organisation.create');
    const missing = await request(svc.app).get(`/v1/organisations/${orgId}/audit/export`).set(owner.auth);
    expect(missing.status).toBe(400);
  });

  it("when a member's write in a service is announced, then it is recorded once, however often it is delivered", async () => {
    await svc.startJobs();
    const data: MemberActionData = {
      tenantId: orgId,
      projectId: randomUUID(),
      memberId: owner.userId,
      memberEmail: owner.email,
      role: 'owner',
      service: 'cms',
      method: 'POST',
      route: '/v1/content',
      status: 201,
      clientAddress: '203.0.113.9',
      userAgent: 'browser',
      at: new Date().toISOString(),
    };
    const event = envelopeOf({ type: PLATFORM_EVENTS.memberAction, tenantId: orgId, projectId: data.projectId, data });
    await svc.deps.bus.publish(event);
    await svc.deps.bus.publish(event);
    const recorded = await waitFor(
      async () => (await entries('&action=cms.post')).length > 0 && entries('&action=cms.post'),
    );
    await svc.deps.bus.publish(envelopeOf({ ...event, data: { ...data, route: '/v1/content/:id', method: 'DELETE' } }));
    await waitFor(async () => (await entries('&action=cms.delete')).length > 0);
    expect(await entries('&action=cms.post')).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      actor: { id: owner.userId, email: owner.email },
      target: '/v1/content',
      outcome: 'success',
      clientAddress: '203.0.113.9',
    });
  });
});

describe('append-only', () => {
  it("when the service's own login tries to change or remove entries, then the database refuses", async () => {
    const [{ db: consoleDb }] = (await svc.deps.db.raw('select current_database() as db')).rows;
    const [{ db: platformDb }] = (await svc.deps.platformDb.raw('select current_database() as db')).rows;
    const role = `console_app_${randomUUID().slice(0, 8)}`;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${consoleDb}`;
    await grantServiceRole(url.toString(), { role, password: 'pw', database: consoleDb, platformDatabase: platformDb });
    const login = new URL(url);
    login.username = role;
    login.password = 'pw';
    const asLogin = createDb({ url: login.toString(), poolMax: 1 });
    try {
      const privileges = await asLogin.raw(
        `select has_table_privilege('audit_entries', 'UPDATE') as u, has_table_privilege('audit_entries', 'DELETE') as d,
                has_table_privilege('audit_entries', 'INSERT') as i`,
      );
      expect(privileges.rows[0]).toEqual({ u: false, d: false, i: true });
      await expect(asLogin.raw(`update audit_entries set action = 'x'`)).rejects.toMatchObject({ code: '42501' });
      await expect(asLogin.raw('delete from audit_entries')).rejects.toMatchObject({ code: '42501' });
      await expect(asLogin.raw('truncate audit_entries')).rejects.toMatchObject({ code: '42501' });
      // Its own writes to the log still work (what the service needs).
      await asLogin.raw(`insert into audit_entries (action, outcome, source) values ('probe', 'success', 'console')`);
      // And the prune function removes nothing younger than a day, whoever calls it.
      const pruned = await asLogin.raw("select prune_audit_entries(now() + interval '1 year') as n");
      expect(Number(pruned.rows[0].n)).toBe(0);
    } finally {
      await asLogin.destroy();
    }
  });

  it('when even the owner updates or deletes an entry outside the prune, then the trigger refuses it', async () => {
    await expect(svc.deps.db.raw(`update audit_entries set action = 'x'`)).rejects.toMatchObject({ code: '42501' });
    await expect(svc.deps.db.raw('delete from audit_entries')).rejects.toMatchObject({ code: '42501' });
    await expect(svc.deps.db.raw('truncate audit_entries')).rejects.toMatchObject({ code: '42501' });
  });

  it('when the retention prune runs, then entries older than the retention go and younger ones stay', async () => {
    const before = (await svc.deps.db('audit_entries').count<{ count: string }[]>('* as count'))[0].count;
    await svc.deps.db.raw(
      `insert into audit_entries (action, outcome, source, at) values ('ancient', 'success', 'console', now() - interval '400 days')`,
    );
    expect(await pruneAudit(svc.deps.db, 365)).toBe(1);
    const after = (await svc.deps.db('audit_entries').count<{ count: string }[]>('* as count'))[0].count;
    expect(after).toBe(before);
    expect(await pruneAudit(svc.deps.db, 365)).toBe(0);
  });
});
