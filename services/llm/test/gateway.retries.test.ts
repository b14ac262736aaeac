import OpenAI from 'openai';
import type { TestProject } from '@platform/testkit';
import { waitFor } from '@platform/testkit';
import { collect, hello, listen, sdkFor, type Listening } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;

beforeAll(async () => {
  llm = await startLlmTestService({
    llmEnv: {
      LLM_VENDOR_TIMEOUT_MS: '5000',
      LLM_GATEWAY_RETRIES: '2',
      LLM_GATEWAY_RETRY_BASE_MS: '1',
      LLM_GATEWAY_RETRY_MAX_WAIT_MS: '2000',
    },
  });
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

beforeEach(() => {
  llm.openai.faults.length = 0;
  llm.anthropic.faults.length = 0;
});

type Attempt = { model: string; status: string; error: string | null; requestId: string; attempt: number };

async function attemptsOf(project: TestProject, count: number): Promise<Attempt[]> {
  await llm.svc.parts.shared.logs.flush();
  const logs = await waitFor(
    async () => {
      const res = await llm.api.get(`/v1/logs/${project.tenantId}/${project.projectId}`, { headers: project.headers });
      return res.body.logs.length >= count ? (res.body.logs as Attempt[]) : null;
    },
    { timeoutMs: 5_000, intervalMs: 20 },
  );
  return logs.sort((a, b) => a.attempt - b.attempt);
}

const modes = [false, true];

describe.each(modes)('retries and fallbacks (stream: %s)', (stream) => {
  async function ask(project: TestProject, body: Record<string, unknown>) {
    const sdk = sdkFor(server.url, project);
    const request = { messages: hello, ...body } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    if (!stream) return (await sdk.chat.completions.create(request)).choices[0].message.content;
    return (await collect(await sdk.chat.completions.create({ ...request, stream: true }))).text;
  }

  it('when the vendor answers 503 and then drops the connection, then the same model is tried again and answers', async () => {
    const project = await llm.projectWithVendors();
    llm.openai.faults.push({ status: 503 }, { status: 0 });
    expect(await ask(project, { model: 'gpt-4o-mini' })).toBe('openai says: hello there');
    const attempts = await attemptsOf(project, 3);
    expect(attempts.map((a) => [a.attempt, a.model, a.status])).toEqual([
      [1, 'gpt-4o-mini', 'error'],
      [2, 'gpt-4o-mini', 'error'],
      [3, 'gpt-4o-mini', 'success'],
    ]);
    expect(new Set(attempts.map((a) => a.requestId)).size).toBe(1);
    expect(attempts[0].error).toContain('503');
  });

  it('when the model keeps failing, then after its retries the request’s fallback answers', async () => {
    const project = await llm.projectWithVendors();
    llm.openai.faults.push({ status: 500 }, { status: 429 }, { status: 502 });
    const text = await ask(project, { model: 'gpt-4o-mini', fallbacks: ['claude-haiku-4-5'] });
    expect(text).toBe('anthropic says: hello there');
    const attempts = await attemptsOf(project, 4);
    expect(attempts.map((a) => `${a.model}:${a.status}`)).toEqual([
      'gpt-4o-mini:error',
      'gpt-4o-mini:error',
      'gpt-4o-mini:error',
      'claude-haiku-4-5:success',
    ]);
  });

  it('when the vendor asks to wait longer than the gateway waits, then it falls back at once to the project’s default', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/fallbacks', { headers: project.headers, body: { fallbacks: ['claude-sonnet-4-5'] } });
    const before = llm.openai.requests.length;
    llm.openai.faults.push({ status: 429, headers: { 'retry-after': '30' } });
    expect(await ask(project, { model: 'gpt-4o' })).toBe('anthropic says: hello there');
    expect(llm.openai.requests.length - before).toBe(1);
  });

  it('when the vendor refuses the request itself (400), then there is no retry and no fallback', async () => {
    const project = await llm.projectWithVendors();
    const before = llm.anthropic.requests.length;
    llm.openai.faults.push({ status: 400 });
    const error = await ask(project, { model: 'gpt-4o', fallbacks: ['claude-sonnet-4-5'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(llm.anthropic.requests.length).toBe(before);
    expect(await attemptsOf(project, 1)).toHaveLength(1);
  });

  it('when every model fails, then the SDK raises an APIError and every attempt is logged', async () => {
    const project = await llm.projectWithVendors();
    llm.openai.faults.push({ status: 500 }, { status: 500 }, { status: 500 });
    llm.anthropic.faults.push({ status: 529 }, { status: 529 }, { status: 529 });
    const error = await ask(project, { model: 'gpt-4o', fallbacks: ['claude-sonnet-4-5'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(await attemptsOf(project, 6)).toHaveLength(6);
  });
});

describe('a stream that fails after its first byte', () => {
  /** Streams `model` (fallback claude-sonnet-4-5) to its end: the text received and what ended it. */
  async function streamUntilFailure(project: TestProject, model: string) {
    const stream = await sdkFor(server.url, project).chat.completions.create({
      model,
      messages: hello,
      stream: true,
      fallbacks: ['claude-sonnet-4-5'],
    } as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    return { text, error };
  }

  it.each([
    ['breaks the connection', 'gpt-4o-mini-break', 'openai says: ', undefined],
    ['sends its error event', 'gpt-4o-mini-stream-error', 'openai says: ', /server had an error/],
    ['sends its error event', 'claude-haiku-4-5-stream-error', 'anthropic says: ', /Overloaded/],
  ])(
    'when the vendor %s mid-stream (%s), then the stream ends with an error event, no fallback is tried and the attempt is logged as failed',
    async (_how, model, before, vendorMessage) => {
      const project = await llm.projectWithVendors();
      const anthropicBefore = llm.anthropic.requests.length;
      const { text, error } = await streamUntilFailure(project, model);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(text).toBe(before);
      // Only the model's own request: claude-sonnet-4-5 (the fallback) is never asked.
      expect(llm.anthropic.requests.length - anthropicBefore).toBe(model.startsWith('claude') ? 1 : 0);
      const attempts = await attemptsOf(project, 1);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ model, status: 'error' });
      if (vendorMessage) expect(attempts[0].error).toMatch(vendorMessage);
    },
  );
});
