import request from 'supertest';
import { createTestService, type TestProject, type TestService } from '@platform/testkit';
import { mailerService } from '../src';
import { mailerClient, type ApiClient } from './support/mailer-test-service';

let svc: TestService;
let project: TestProject;
let api: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  svc = await createTestService(mailerService);
  project = await svc.createProject();
  api = mailerClient(svc.app, project.headers);
  other = mailerClient(svc.app, (await svc.createProject()).headers);
});

afterAll(async () => {
  await svc.close();
});

const welcome = {
  name: 'Welcome',
  templateKey: 'welcome',
  subject: 'Hello {{name}} & welcome',
  html: '<h1>Hello {{name}}</h1>{{#if vip}}<p>VIP</p>{{/if}}<ul>{{#each items}}<li>{{this}}</li>{{/each}}</ul>',
  text: 'Hello {{name}}{{#each items}} - {{this}}{{/each}}',
};

describe('templates', () => {
  it('when a template is created, then 201 returns it with ids and timestamps', async () => {
    const res = await api.post('/v1/templates', { body: { ...welcome, templateKey: 'created-1', unknownField: 'x' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Welcome',
      templateKey: 'created-1',
      subject: welcome.subject,
      html: welcome.html,
      text: welcome.text,
    });
    expect(res.body.unknownField).toBeUndefined();
    expect(res.body.createdAt).toMatch(/\.\d{3}Z$/);
  });

  it('when required fields are missing, then 400 VALIDATION_ERROR lists them', async () => {
    const res = await api.post('/v1/templates', { body: { name: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['html', 'subject']);
  });

  it('when the html does not compile, then 400 names the field', async () => {
    const res = await api.post('/v1/templates', {
      body: { ...welcome, templateKey: null, html: '<p>{{#if x}}open</p>' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('html');
  });

  it('when a template calls an unknown helper, then 400 at create', async () => {
    const res = await api.post('/v1/templates', { body: { ...welcome, templateKey: null, subject: '{{shout name}}' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('subject');
  });

  it('when the templateKey is already used in the project, then 409 CONFLICT', async () => {
    await api
      .post('/v1/templates', { body: { ...welcome, templateKey: 'dup' } })
      .then((r) => expect(r.status).toBe(201));
    const res = await api.post('/v1/templates', { body: { ...welcome, templateKey: 'dup' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('when another project uses the same templateKey, then it is allowed', async () => {
    await api.post('/v1/templates', { body: { ...welcome, templateKey: 'shared-key' } });
    const res = await other.post('/v1/templates', { body: { ...welcome, templateKey: 'shared-key' } });
    expect(res.status).toBe(201);
  });

  it('when previewed, then html is escaped and subject and text are not', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    const res = await api.post(`/v1/templates/${created.body.id}/preview`, {
      body: {
        data: { name: '<b>Ann & Bob</b>', vip: true, items: ['a<b', 'c'] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      subject: 'Hello <b>Ann & Bob</b> & welcome',
      html: '<h1>Hello &lt;b&gt;Ann &amp; Bob&lt;/b&gt;</h1><p>VIP</p><ul><li>a&lt;b</li><li>c</li></ul>',
      text: 'Hello <b>Ann & Bob</b> - a<b - c',
    });
  });

  it('when a conditional is false and a list is empty, then both render to nothing', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    const res = await api.post(`/v1/templates/${created.body.id}/preview`, { body: { data: { name: 'Z' } } });
    expect(res.body.html).toBe('<h1>Hello Z</h1><ul></ul>');
  });

  it('when a draft is previewed, then the unsaved content renders and the stored template is unchanged', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    const res = await api.post(`/v1/templates/${created.body.id}/preview`, {
      body: { data: { name: '<i>Zoe</i>' }, draft: { subject: 'Hi {{name}}', html: '<p>Bye {{name}}</p>', text: '' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ subject: 'Hi <i>Zoe</i>', html: '<p>Bye &lt;i&gt;Zoe&lt;/i&gt;</p>', text: null });
    expect((await api.get(`/v1/templates/${created.body.id}`)).body).toEqual(created.body);
  });

  it('when a draft does not compile, then 400 names its field; a draft cannot reach another project', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    const broken = await api.post(`/v1/templates/${created.body.id}/preview`, {
      body: { draft: { subject: 'ok', html: '{{#each}}' } },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['draft.html']);
    const foreign = await other.post(`/v1/templates/${created.body.id}/preview`, {
      body: { draft: { subject: 'x', html: 'y' } },
    });
    expect(foreign.status).toBe(404);
  });

  it('when listed, then summaries come newest first without html', async () => {
    const res = await api.get('/v1/templates');
    expect(res.status).toBe(200);
    expect(res.body.templates.length).toBeGreaterThan(2);
    expect(res.body.templates[0].html).toBeUndefined();
    const times = res.body.templates.map((t: { createdAt: string }) => t.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('when fetched by id, then the full template comes back; an unknown or malformed id is 404', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    const res = await api.get(`/v1/templates/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect((await api.get('/v1/templates/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api.get('/v1/templates/not-a-uuid')).status).toBe(404);
  });

  it('when updated, then the next preview uses the new text (the cache is not stale)', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    await api.post(`/v1/templates/${created.body.id}/preview`, { body: { data: { name: 'A' } } });
    const updated = await api.put(`/v1/templates/${created.body.id}`, {
      body: { subject: 'Changed {{name}}', text: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.updatedAt > created.body.updatedAt).toBe(true);
    expect(updated.body.text).toBeNull();
    const res = await api.post(`/v1/templates/${created.body.id}/preview`, { body: { data: { name: 'A' } } });
    expect(res.body).toMatchObject({ subject: 'Changed A', text: null });
  });

  it('when an update does not compile or takes a used key, then 400 / 409 and nothing changes', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: 'upd-a' } });
    await api.post('/v1/templates', { body: { ...welcome, templateKey: 'upd-b' } });
    expect((await api.put(`/v1/templates/${created.body.id}`, { body: { html: '{{#each}}' } })).status).toBe(400);
    expect((await api.put(`/v1/templates/${created.body.id}`, { body: { templateKey: 'upd-b' } })).status).toBe(409);
    expect((await api.put(`/v1/templates/${created.body.id}`, { body: {} })).status).toBe(400);
    expect((await api.get(`/v1/templates/${created.body.id}`)).body).toEqual(created.body);
  });

  it('when deleted, then 204 and it is gone', async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    expect((await api.delete(`/v1/templates/${created.body.id}`)).status).toBe(204);
    expect((await api.get(`/v1/templates/${created.body.id}`)).status).toBe(404);
    expect((await api.delete(`/v1/templates/${created.body.id}`)).status).toBe(404);
  });

  it("when another project's keys name this project's template, then 404 on every operation", async () => {
    const created = await api.post('/v1/templates', { body: { ...welcome, templateKey: null } });
    const id = created.body.id;
    expect((await other.get(`/v1/templates/${id}`)).status).toBe(404);
    expect((await other.put(`/v1/templates/${id}`, { body: { name: 'stolen' } })).status).toBe(404);
    expect((await other.post(`/v1/templates/${id}/preview`, { body: { data: {} } })).status).toBe(404);
    expect((await other.delete(`/v1/templates/${id}`)).status).toBe(404);
    const list = await other.get('/v1/templates');
    expect(list.body.templates.map((t: { id: string }) => t.id)).not.toContain(id);
    expect((await api.get(`/v1/templates/${id}`)).body.name).toBe('Welcome');
  });

  it('when the OpenAPI document is fetched, then it describes every Mailer endpoint', async () => {
    const res = await request(svc.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/emails/logs/{recipient_email}',
      '/emails/send',
      '/logs',
      '/providers',
      '/providers/{provider_id}',
      '/providers/{provider_id}/test',
      '/stats',
      '/stats/daily',
      '/suppressions',
      '/suppressions/{email}',
      '/templates',
      '/templates/{template_id}',
      '/templates/{template_id}/preview',
      '/unsubscribe/{token}',
      '/webhooks/{provider_id}',
    ]);
  });

  it('when the page size is not a positive number, then 400 VALIDATION_ERROR', async () => {
    const res = await api.get('/v1/templates?limit=0');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when keys are missing, then 401', async () => {
    const anonymous = mailerClient(svc.app, {});
    expect((await anonymous.get('/v1/templates')).status).toBe(401);
  });
});
