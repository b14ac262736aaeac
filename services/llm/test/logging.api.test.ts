import { startWithLogLines, type TestProject } from '@platform/testkit';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

// No log line may carry a vendor key, even when the vendor echoes the key it refused.
let t: LlmTestService;
let project: TestProject;
let lines: string[];

beforeAll(async () => {
  ({ started: t, lines } = await startWithLogLines(
    () => startLlmTestService(),
    (started) => started.svc,
  ));
  project = await t.svc.createProject();
});
afterAll(() => t.close());

describe('logs', () => {
  it('when a stored or tried vendor key is refused and the vendor quotes it back, then no log line contains it', async () => {
    const stored = 'sk-proj-StoredButWrong0123456789';
    const tried = 'sk-proj-TriedAndWrong9876543210';
    await configureVendors(t.api, project, ['anthropic']);
    expect(
      (
        await t.api.post('/v1/providers', {
          headers: project.headers,
          body: { providerType: 'openai', apiKey: stored },
        })
      ).status,
    ).toBe(200);
    const completion = await t.api.post('/v1/completions', {
      headers: project.headers,
      body: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hello' }],
      },
    });
    expect(completion.status).toBeGreaterThanOrEqual(400);
    const test = await t.api.post('/v1/providers/test', {
      headers: project.headers,
      body: { providerType: 'openai', apiKey: tried },
    });
    expect(test.status).toBe(200);
    expect(t.openai.requests.some((r) => String(r.headers.authorization).includes(stored))).toBe(true);
    expect(lines.filter((line) => line.includes('"message":"request"'))).not.toHaveLength(0);
    for (const secret of [stored, tried]) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });
});
