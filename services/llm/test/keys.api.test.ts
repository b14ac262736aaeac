import { randomUUID } from 'node:crypto';
import type { HttpMethod, TestProject } from '@platform/testkit';
import { openapi } from '../src/openapi';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let project: TestProject;

beforeAll(async () => {
  llm = await startLlmTestService();
  project = await llm.svc.createProject();
});
afterAll(() => llm.close());

const operations = Object.entries((openapi as { paths: Record<string, Record<string, unknown>> }).paths).flatMap(
  ([template, methods]) =>
    Object.keys(methods).map((method) => ({
      method: method as HttpMethod,
      path: template.replace(/\{[^}]+\}/g, () => randomUUID()),
      template,
    })),
);

describe('credentials', () => {
  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.template}`, o] as const))(
    'when %s comes without keys or a bearer credential, then 401',
    async (_name, { method, path }) => {
      const res = await llm.api.call(method, path, {});
      expect(res.status).toBe(401);
      expect(res.body.success).toBe(false);
    },
  );
});

describe('bodies the service refuses', () => {
  it('when a batch body is larger than the body limit, then 413 in the error envelope', async () => {
    const content = 'x'.repeat(1_100_000);
    const res = await llm.api.post('/v1/batch', {
      headers: project.headers,
      body: { requests: [{ custom_id: 'big', model: 'gpt-4o', messages: [{ role: 'user', content }] }] },
    });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
  });

  it('when a provider test names no known provider, then 400 VALIDATION_ERROR', async () => {
    const res = await llm.api.post('/v1/providers/test', { headers: project.headers, body: { providerType: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});
