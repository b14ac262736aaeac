import request from 'supertest';
import type { EventEnvelope } from '@platform/events';
import { assertMatchesOpenApi, createTestService, waitFor, type TestService } from '@platform/testkit';
import { templateService, type TemplateShared } from '../src';
import { openapi } from '../src/openapi';

let svc: TestService<TemplateShared>;
const published: EventEnvelope[] = [];

beforeAll(async () => {
  svc = await createTestService(templateService, { env: { TEMPLATE_MAX_BODY_LENGTH: '20' } });
  await svc.deps.bus.subscribe({
    queue: 'template-test',
    topics: ['template.#'],
    handler: async (e) => void published.push(e),
  });
  svc.deps.relay.start();
});
afterAll(() => svc.close());

describe('notes', () => {
  it('when a note is created, then it is returned, readable by its project, and announced once committed', async () => {
    const project = await svc.createProject();
    const created = await request(svc.app).post('/v1/notes').set(project.headers).send({ title: 'Hi', body: 'First' });
    expect(created.status).toBe(201);
    assertMatchesOpenApi(openapi, created);
    expect(created.body).toMatchObject({ title: 'Hi', body: 'First' });

    const read = await request(svc.app).get(`/v1/notes/${created.body.id}`).set(project.headers);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    await waitFor(() => published.some((e) => (e.data as { id: string }).id === created.body.id));
    expect(published.find((e) => (e.data as { id: string }).id === created.body.id)).toMatchObject({
      type: 'template.note.created',
      tenantId: project.tenantId,
      projectId: project.projectId,
    });
  });

  it('when another project asks for a note, then it gets 404 as if the note did not exist', async () => {
    const owner = await svc.createProject();
    const stranger = await svc.createProject();
    const created = await request(svc.app).post('/v1/notes').set(owner.headers).send({ title: 'Mine', body: 'Secret' });
    const read = await request(svc.app).get(`/v1/notes/${created.body.id}`).set(stranger.headers);
    expect(read.status).toBe(404);
    assertMatchesOpenApi(openapi, read);
    expect(read.body.error.code).toBe('NOT_FOUND');
  });

  it("when the body is longer than the service's configured limit, then it is a 400 VALIDATION_ERROR", async () => {
    const project = await svc.createProject();
    const res = await request(svc.app)
      .post('/v1/notes')
      .set(project.headers)
      .send({ title: 'Long', body: 'x'.repeat(21) });
    expect(res.status).toBe(400);
    assertMatchesOpenApi(openapi, res);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(svc.parts.shared.config.maxBodyLength).toBe(20);
  });
});
