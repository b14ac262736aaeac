import request from 'supertest';
import { createTestService, describeProjectErasure, waitFor } from '@platform/testkit';
import { llmService } from '../src';
import { ERASURE_TABLES } from '../src/project-erasure';
import { OPENAI_KEY, openAiStub, type OpenAiStub } from './support/vendor-stubs';

let openai: OpenAiStub;
beforeAll(async () => {
  openai = await openAiStub();
});
afterAll(() => openai.close());

const messages = [{ role: 'user', content: 'Hello' }];

describeProjectErasure({
  service: 'llm',
  definition: llmService,
  tables: ERASURE_TABLES,
  start: (bus) =>
    createTestService(llmService, {
      bus,
      env: { OPENAI_BASE_URL: `${openai.url}/v1`, LLM_VENDOR_MAX_RETRIES: '0', LLM_ROLE: 'api' },
    }),
  async seed(svc, project) {
    const send = (method: 'post' | 'put', path: string, body: object) =>
      request(svc.app)[method](`/v1${path}`).set(project.headers).send(body);
    expect((await send('post', '/providers', { providerType: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
    expect((await send('put', '/limits', { requestsPerMinute: 1000 })).status).toBe(200);
    expect((await send('post', '/completions', { model: 'gpt-4o-mini', messages })).status).toBe(200);
    const batch = await send('post', '/batch', { requests: [{ custom_id: 'a', model: 'gpt-4o-mini', messages }] });
    expect(batch.status).toBe(201);
    // Completion logs are written behind the response.
    await waitFor(() => svc.deps.db('completion_logs').where({ project_id: project.projectId }).first('id'));
  },
  seeded: ['providers', 'project_limits', 'completion_logs', 'batches'],
});
