import { MAX_JSON_DEPTH } from '@platform/tenancy';
import type { TestProject } from '@platform/testkit';
import { hello } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let project: TestProject;

beforeAll(async () => {
  llm = await startLlmTestService();
  project = await llm.projectWithVendors();
});

afterAll(async () => {
  await llm.close();
});

/** `{"a":{"a":...{}}}`, `depth` objects deep, as JSON text. */
const nestedText = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
/** A chat body whose one tool's `parameters` nests `depth` objects deep (the body itself is 4 levels above it). */
const chatWithTool = (model: string, depth: number) =>
  `{"model":"${model}","messages":${JSON.stringify(hello)},"tools":[{"type":"function","function":{"name":"f","parameters":${nestedText(depth)}}}]}`;
const chat = (text: string) =>
  llm.api.post('/v1/chat/completions', {
    headers: { ...project.headers, 'content-type': 'application/json' },
    body: text,
  });

describe('tool parameters nested past the JSON depth limit', () => {
  it.each(['gpt-4o-mini', 'claude-3-5-haiku-latest'])(
    'when a %s call sends tool parameters thousands of levels deep, then 400 before any vendor call, not a 502',
    async (model) => {
      for (const depth of [MAX_JSON_DEPTH, 4_000]) {
        const res = await chat(chatWithTool(model, depth));
        expect(res.status).toBe(400);
        expect(JSON.stringify(res.body)).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      }
      expect((await chat(chatWithTool(model, MAX_JSON_DEPTH - 4))).status).toBe(200);
    },
  );
});
