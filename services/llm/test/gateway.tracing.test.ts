import OpenAI from 'openai';
import type { TestProject } from '@platform/testkit';
import { waitFor } from '@platform/testkit';
import { startInMemoryTracing, type InMemoryTracing } from '@platform/telemetry/src/in-memory';
import { collect, hello, listen, sdkFor, type Listening } from './support/gateway-client';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let tracing: InMemoryTracing;
let llm: LlmTestService;
let server: Listening;

beforeAll(async () => {
  tracing = startInMemoryTracing();
  llm = await startLlmTestService({
    llmEnv: { LLM_GATEWAY_RETRIES: '2', LLM_GATEWAY_RETRY_BASE_MS: '1', LLM_GATEWAY_RETRY_MAX_WAIT_MS: '2000' },
  });
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
  await tracing.stop();
});

beforeEach(() => {
  tracing.reset();
  llm.openai.faults.length = 0;
});

const attemptSpans = () =>
  tracing
    .spans()
    .filter((s) => s.attributes['gen_ai.operation.name'] !== undefined)
    .sort((a, b) => Number(a.attributes['platform.llm.attempt']) - Number(b.attributes['platform.llm.attempt']));

describe.each([false, true])('GenAI spans of the gateway (stream: %s)', (stream) => {
  async function ask(project: TestProject, body: Record<string, unknown>) {
    const sdk = sdkFor(server.url, project);
    const request = { messages: hello, ...body } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    if (!stream) return (await sdk.chat.completions.create(request)).choices[0].message.content;
    return (await collect(await sdk.chat.completions.create({ ...request, stream: true }))).text;
  }

  it('when an attempt fails, is retried and then falls back, then each attempt is its own span with its outcome', async () => {
    const project = await llm.projectWithVendors();
    llm.openai.faults.push({ status: 503 }, { status: 500 }, { status: 502 });
    expect(await ask(project, { model: 'gpt-4o-mini', fallbacks: ['claude-haiku-4-5'] })).toBe(
      'anthropic says: hello there',
    );
    const spans = await waitFor(() => attemptSpans().length === 4 && attemptSpans());
    expect(spans.map((s) => [s.name, s.attributes['platform.llm.attempt.kind'], s.attributes['error.type']])).toEqual([
      ['chat gpt-4o-mini', undefined, '503'],
      ['chat gpt-4o-mini', 'retry', '500'],
      ['chat gpt-4o-mini', 'retry', '502'],
      ['chat claude-haiku-4-5', 'fallback', undefined],
    ]);
    const answered = spans[3];
    expect(answered.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-haiku-4-5',
      'gen_ai.response.model': expect.any(String),
      'gen_ai.response.finish_reasons': ['stop'],
      'platform.llm.stream': stream,
      'platform.llm.attempt': 4,
    });
    expect(answered.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(answered.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(answered.attributes['platform.llm.cost_usd']).toBeGreaterThan(0);
    if (stream) expect(answered.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThanOrEqual(0);
    // Neither the prompt nor the answer, nor the vendor's key, is in any span.
    const exported = JSON.stringify(tracing.spans().map((s) => s.attributes));
    expect(exported).not.toMatch(/hello there|sk-/);
  });
});

describe('prompt and completion on spans', () => {
  it('when a project opts in (traceLlmContent), then its spans carry the messages; another project’s never do', async () => {
    const optedIn = await llm.svc.createProject({ traceLlmContent: true });
    await configureVendors(llm.api, optedIn);
    const other = await llm.projectWithVendors();
    const ask = (project: TestProject, content: string) =>
      sdkFor(server.url, project).chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content }],
      });
    await ask(optedIn, 'opted in please');
    await ask(other, 'keep this private');
    const spans = await waitFor(() => attemptSpans().length === 2 && attemptSpans());
    const input = spans.map((s) => s.attributes['gen_ai.input.messages']);
    expect(input.filter(Boolean)).toHaveLength(1);
    expect(String(input.find(Boolean))).toContain('opted in please');
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('keep this private');
    expect(
      String(spans.find((s) => s.attributes['gen_ai.output.messages'])?.attributes['gen_ai.output.messages']),
    ).toContain('openai says');
  });
});
