import { SETTING_NAMES } from '@platform/directory';
import request from 'supertest';
import { assertMatchesOpenApi, waitFor } from '@platform/testkit';
import { ERASING_SERVICES, PLATFORM_EVENTS, envelopeOf } from '@platform/events';
import { createOperator } from '../src';
import { openapi } from '../src/openapi';
import {
  keyCheckedApp,
  keyHeaders,
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
  orgId = (await request(svc.app).post('/v1/organisations').set(owner.auth).send({ name: 'Keys Inc' })).body.id;
});
afterAll(() => svc.close());

const base = () => `/v1/organisations/${orgId}/projects`;

async function newProject(name = `p-${Math.random().toString(36).slice(2)}`) {
  const res = await request(svc.app).post(base()).set(owner.auth).send({ name });
  expect(res.status).toBe(201);
  return res.body as { id: string; organisationId: string; key: { id: string; publicKey: string; secretKey: string } };
}

/** Every answer the console gave in a test, to show a secret never comes back. */
const answers: string[] = [];
const seen = (res: request.Response) => {
  answers.push(JSON.stringify(res.body));
  return res;
};

describe('keys', () => {
  it('when a project is made, then its first key works on a service, and its secret is never shown again', async () => {
    const project = await newProject();
    const created = project.key;
    expect(created.secretKey).toMatch(/^sk_/);
    const ping = await request(keyCheckedApp(svc)).get('/v1/ping').set(keyHeaders(project, created));
    expect(ping.status).toBe(200);

    seen(await request(svc.app).get(`${base()}/${project.id}`).set(owner.auth));
    const list = seen(await request(svc.app).get(`${base()}/${project.id}/keys`).set(owner.auth));
    assertMatchesOpenApi(openapi, list);
    expect(list.body.keys[0]).toMatchObject({
      id: created.id,
      name: 'default',
      publicKey: created.publicKey,
      createdBy: owner.email,
    });
    expect(list.body.keys[0]).not.toHaveProperty('secretKey');
    seen(await request(svc.app).get(`${base()}`).set(owner.auth));
    seen(await request(svc.app).get(`/v1/organisations/${orgId}/audit?limit=200`).set(owner.auth));
    const exported = await request(svc.app)
      .get(`/v1/organisations/${orgId}/audit/export?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z`)
      .set(owner.auth);
    answers.push(exported.text);
    expect(answers.join('\n')).not.toContain(created.secretKey);
    const stored = await svc.deps.platformDb('api_keys').where({ id: created.id }).first();
    expect(JSON.stringify(stored)).not.toContain(created.secretKey);
  });

  it('when a named key is created, then its secret is in that answer only and it works', async () => {
    const project = await newProject();
    const res = await request(svc.app).post(`${base()}/${project.id}/keys`).set(owner.auth).send({ name: 'ci' });
    expect(res.status).toBe(201);
    assertMatchesOpenApi(openapi, res);
    expect(res.body).toMatchObject({ name: 'ci', status: 'active', createdBy: owner.email });
    const ping = await request(keyCheckedApp(svc)).get('/v1/ping').set(keyHeaders(project, res.body));
    expect(ping.status).toBe(200);
    const list = await request(svc.app).get(`${base()}/${project.id}/keys`).set(owner.auth);
    expect(JSON.stringify(list.body)).not.toContain(res.body.secretKey);
  });

  it('when a key is revoked, then the key check refuses it once its cache entry is gone, and the answer states that time', async () => {
    const project = await newProject();
    const app = keyCheckedApp(svc);
    await request(app).get('/v1/ping').set(keyHeaders(project, project.key)).expect(200);
    const res = await request(svc.app).delete(`${base()}/${project.id}/keys/${project.key.id}`).set(owner.auth);
    expect(res.status).toBe(200);
    assertMatchesOpenApi(openapi, res);
    expect(res.body.effectiveWithinSeconds).toBe(Math.ceil(svc.deps.directory.ttlMs / 1000));
    expect(res.body.key.status).toBe('revoked');
    svc.deps.directory.clearCache();
    const refused = await request(app).get('/v1/ping').set(keyHeaders(project, project.key));
    expect(refused.status).toBe(401);
    const again = await request(svc.app).delete(`${base()}/${project.id}/keys/${project.key.id}`).set(owner.auth);
    expect(again.status).toBe(404);
  });

  it('when a key is rotated, then both work until the old one expires at the time asked for', async () => {
    const project = await newProject();
    const app = keyCheckedApp(svc);
    const rotated = await request(svc.app)
      .post(`${base()}/${project.id}/keys/${project.key.id}/rotate`)
      .set(owner.auth)
      .send({ oldKeyExpiresInSeconds: 3600 });
    expect(rotated.status).toBe(201);
    assertMatchesOpenApi(openapi, rotated);
    expect(rotated.body.key.name).toBe('default');
    expect(rotated.body.previous.expiresAt).not.toBeNull();
    svc.deps.directory.clearCache();
    await request(app).get('/v1/ping').set(keyHeaders(project, project.key)).expect(200);
    await request(app).get('/v1/ping').set(keyHeaders(project, rotated.body.key)).expect(200);

    // The hour passes.
    await svc.deps
      .platformDb('api_keys')
      .where({ id: project.key.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    svc.deps.directory.clearCache();
    await request(app).get('/v1/ping').set(keyHeaders(project, project.key)).expect(401);
    await request(app).get('/v1/ping').set(keyHeaders(project, rotated.body.key)).expect(200);
    const list = await request(svc.app).get(`${base()}/${project.id}/keys`).set(owner.auth);
    expect(list.body.keys.map((k: { status: string }) => k.status)).toEqual(['expired', 'active']);
  });

  it('when a key is used, then its last use shows up, without a write for each request', async () => {
    const project = await newProject();
    svc.deps.directory.clearCache();
    const app = keyCheckedApp(svc);
    for (let i = 0; i < 5; i++) await request(app).get('/v1/ping').set(keyHeaders(project, project.key)).expect(200);
    const lastUsed = await waitFor(async () => {
      const list = await request(svc.app).get(`${base()}/${project.id}/keys`).set(owner.auth);
      return list.body.keys[0].lastUsedAt as string | null;
    });
    expect(Date.parse(lastUsed)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('project deletion', () => {
  it("when a project is deleted, then its keys stop at once, the services are asked to erase it, and GET shows each one's confirmation", async () => {
    const project = await newProject();
    const other = await newProject();
    const app = keyCheckedApp(svc);
    await request(app).get('/v1/ping').set(keyHeaders(project, project.key)).expect(200);
    await svc.startJobs();

    const deleted = await request(svc.app).delete(`${base()}/${project.id}`).set(owner.auth);
    expect(deleted.status).toBe(202);
    assertMatchesOpenApi(openapi, deleted);
    expect(deleted.body).toMatchObject({ status: 'deleting', erasure: { complete: false } });
    svc.deps.directory.clearCache();
    await request(app).get('/v1/ping').set(keyHeaders(project, project.key)).expect(401);
    await request(app).get('/v1/ping').set(keyHeaders(other, other.key)).expect(200);

    const request_ = await waitFor(() =>
      published.find((e) => e.type === PLATFORM_EVENTS.projectErasureRequested && e.projectId === project.id),
    );
    expect(request_.data).toMatchObject({ tenantId: orgId, projectId: project.id });

    const list = await request(svc.app).get(base()).set(owner.auth);
    expect(list.body.projects.map((p: { id: string }) => p.id)).not.toContain(project.id);

    // Five services answer; the sixth is down and answers later.
    for (const service of ERASING_SERVICES.slice(0, 5))
      await svc.deps.bus.publish(
        envelopeOf({
          type: PLATFORM_EVENTS.projectErased,
          tenantId: orgId,
          projectId: project.id,
          data: { tenantId: orgId, projectId: project.id, service, erasedAt: new Date().toISOString() },
        }),
      );
    const partial = await waitFor(async () => {
      const res = await request(svc.app).get(`${base()}/${project.id}`).set(owner.auth);
      return Object.values(res.body.erasure.services).filter(Boolean).length === 5 ? res : undefined;
    });
    expect(partial.body).toMatchObject({
      status: 'deleting',
      erasure: { complete: false, services: { notifications: null } },
    });
    assertMatchesOpenApi(openapi, partial);

    await svc.deps.bus.publish(
      envelopeOf({
        type: PLATFORM_EVENTS.projectErased,
        tenantId: orgId,
        projectId: project.id,
        data: { tenantId: orgId, projectId: project.id, service: 'notifications', erasedAt: new Date().toISOString() },
      }),
    );
    const done = await waitFor(async () => {
      const res = await request(svc.app).get(`${base()}/${project.id}`).set(owner.auth);
      return res.body.erasure.complete ? res : undefined;
    });
    expect(done.body.status).toBe('deleted');
    const untouched = await request(svc.app).get(`${base()}/${other.id}`).set(owner.auth);
    expect(untouched.body).toMatchObject({ status: 'active', erasure: null });
  });
});

describe('settings', () => {
  it('when settings are written, then they are read back and validated exactly as the command line validates them', async () => {
    const project = await newProject();
    const url = `${base()}/${project.id}/settings`;
    const ok = await request(svc.app)
      .patch(url)
      .set(owner.auth)
      .send({ appUrl: 'https://app.example', allowedOrigins: ['https://app.example'], requireEmailVerification: true });
    expect(ok.status).toBe(200);
    assertMatchesOpenApi(openapi, ok);
    const read = await request(svc.app).get(url).set(owner.auth);
    expect(read.body.settings).toEqual({
      appUrl: 'https://app.example',
      allowedOrigins: ['https://app.example'],
      requireEmailVerification: true,
    });
    expect(read.body.known).toEqual(SETTING_NAMES);
    expect(read.body.known).toEqual(expect.arrayContaining(['requireEmailVerification', 'appUrl', 'allowedOrigins']));

    for (const bad of [{ appUrl: 'ftp://x' }, { requireEmailVerification: 'yes' }, { colour: 'red' }, {}]) {
      const res = await request(svc.app).patch(url).set(owner.auth).send(bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    // A refused change changes nothing, not even its valid part.
    await request(svc.app)
      .patch(url)
      .set(owner.auth)
      .send({ appUrl: 'https://other.example', colour: 'red' })
      .expect(400);
    expect((await request(svc.app).get(url).set(owner.auth)).body.settings.appUrl).toBe('https://app.example');
  });
});

describe('suspension', () => {
  it('when an operator suspends an organisation, then its keys are refused with 403, its members still see why, and lifting it restores them', async () => {
    const project = await newProject();
    const operator = await signIn(svc, `op-${Date.now()}@example.com`);
    await createOperator(
      svc.deps.db,
      { actorId: null, actorEmail: null, clientAddress: null, userAgent: 'cli', source: 'cli' },
      operator.email,
      operator.userId,
    );
    const app = keyCheckedApp(svc);

    const all = await request(svc.app).get('/v1/operator/organisations?limit=200').set(operator.auth);
    expect(all.status).toBe(200);
    expect(all.body.organisations.map((o: { id: string }) => o.id)).toContain(orgId);

    const suspended = await request(svc.app)
      .post(`/v1/operator/organisations/${orgId}/suspension`)
      .set(operator.auth)
      .send({ reason: 'Unpaid invoices' });
    expect(suspended.status).toBe(200);
    assertMatchesOpenApi(openapi, suspended);
    svc.deps.directory.clearCache();
    const refused = await request(app).get('/v1/ping').set(keyHeaders(project, project.key));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'Organisation suspended' });
    const token = await request(svc.app).post(`${base()}/${project.id}/member-token`).set(owner.auth);
    expect(token.status).toBe(403);

    const seenByMember = await request(svc.app).get(`/v1/organisations/${orgId}`).set(owner.auth);
    expect(seenByMember.body).toMatchObject({ suspended: true, suspensionReason: 'Unpaid invoices' });

    await request(svc.app).delete(`/v1/operator/organisations/${orgId}/suspension`).set(operator.auth).expect(200);
    svc.deps.directory.clearCache();
    await request(app).get('/v1/ping').set(keyHeaders(project, project.key)).expect(200);

    const audit = await svc.deps
      .db('audit_entries')
      .where({ tenant_id: orgId })
      .whereIn('action', ['organisation.suspend', 'organisation.unsuspend'])
      .orderBy('seq')
      .select('action', 'actor_email');
    expect(audit).toEqual([
      { action: 'organisation.suspend', actor_email: operator.email },
      { action: 'organisation.unsuspend', actor_email: operator.email },
    ]);
  });
});
