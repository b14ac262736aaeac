import { MAX_JSON_DEPTH } from '@platform/tenancy';
import { createTestService, type TestProject, type TestService } from '@platform/testkit';
import { mailerService } from '../src';
import { mailerClient, type ApiClient } from './support/mailer-test-service';

let svc: TestService;
let project: TestProject;
let api: ApiClient;
let templateId: string;

beforeAll(async () => {
  svc = await createTestService(mailerService);
  project = await svc.createProject();
  api = mailerClient(svc.app, project.headers);
  const created = await api.post('/v1/templates', {
    body: { name: 'Deep', subject: 'Hi {{a.a}}', html: '<p>{{a.a}}</p>' },
  });
  expect(created.status).toBe(201);
  templateId = created.body.id;
});

afterAll(async () => {
  await svc.close();
});

/** `{"a":{"a":...1}}`, `depth` objects deep, as JSON text. */
const nestedText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const post = (path: string, text: string) =>
  api.post(path, { body: text, headers: { 'content-type': 'application/json' } });
const tooDeep = (field: string) => [
  { path: field, message: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` },
];

describe('template variables nested past the JSON depth limit', () => {
  it('when preview data nests thousands of levels deep, then 400 names data, not a 500 from the render thread', async () => {
    for (const depth of [MAX_JSON_DEPTH, 4_000]) {
      const res = await post(`/v1/templates/${templateId}/preview`, `{"data":${nestedText(depth)}}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual(tooDeep('data'));
    }
    const shallow = await post(`/v1/templates/${templateId}/preview`, `{"data":${nestedText(MAX_JSON_DEPTH - 1)}}`);
    expect(shallow.status).toBe(200);
  });

  it('when send templateData nests thousands of levels deep, then 400 names templateData and nothing is logged', async () => {
    for (const depth of [MAX_JSON_DEPTH, 4_000]) {
      const res = await post(
        '/v1/emails/send',
        `{"to":"deep@example.com","subject":"s","templateId":"${templateId}","templateData":${nestedText(depth)}}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual(tooDeep('templateData'));
    }
    expect((await api.get('/v1/logs')).body.total).toBe(0);
  });
});
