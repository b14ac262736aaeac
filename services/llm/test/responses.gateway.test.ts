import OpenAI from 'openai';
import type { TestProject } from '@platform/testkit';
import { waitFor } from '@platform/testkit';
import { listen, sdkFor, type Listening } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';
import { OPENAI_KEY } from './support/vendor-stubs';

let llm: LlmTestService;
let server: Listening;

beforeAll(async () => {
  llm = await startLlmTestService({
    llmEnv: {
      LLM_VENDOR_TIMEOUT_MS: '5000',
      LLM_GATEWAY_RETRIES: '2',
      LLM_GATEWAY_RETRY_BASE_MS: '1',
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

type Log = {
  model: string;
  status: string;
  error: string | null;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | null;
  attempt: number;
};

async function logsOf(project: TestProject, count: number): Promise<Log[]> {
  await llm.svc.parts.shared.logs.flush();
  const logs = await waitFor(
    async () => {
      const res = await llm.api.get(`/v1/logs/${project.tenantId}/${project.projectId}`, { headers: project.headers });
      return res.body.logs.length >= count ? (res.body.logs as Log[]) : null;
    },
    { timeoutMs: 5_000, intervalMs: 20 },
  );
  return logs.sort((a, b) => a.attempt - b.attempt);
}

/** Streams a Response to its end: its text, and the error event or the error the SDK raised. */
async function streamed(sdk: OpenAI, body: Record<string, unknown>) {
  const stream = await sdk.responses.create({ input: 'hello there', ...body, stream: true } as never);
  let text = '';
  let errorEvent: { message: string } | undefined;
  let completed = false;
  const raised = await (async () => {
    for await (const event of stream as unknown as AsyncIterable<OpenAI.Responses.ResponseStreamEvent>) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'error') errorEvent = event;
      if (event.type === 'response.completed') completed = true;
    }
  })().catch((e: unknown) => e);
  return { text, errorEvent, completed, raised };
}

const GPT = { promptTokens: 11, completionTokens: 7, costUsd: 0.00000555 };
const CLAUDE = { promptTokens: 25, completionTokens: 5, costUsd: 0.0001434 };

describe('usage and cost of /v1/responses and /v1/embeddings', () => {
  it.each([
    ['gpt-4o-mini', GPT],
    ['claude-sonnet-4-5', CLAUDE],
  ])(
    'when %s answers whole and streamed, then both logs carry the same tokens and cost, and stats sum them',
    async (model, expected) => {
      const project = await llm.projectWithVendors();
      const sdk = sdkFor(server.url, project);
      await sdk.responses.create({ model, input: 'hello there' });
      const stream = await streamed(sdk, { model });
      expect(stream.completed).toBe(true);
      const logs = await logsOf(project, 2);
      expect(logs).toHaveLength(2);
      for (const log of logs) expect(log).toMatchObject({ model, status: 'success', error: null, ...expected });
      const stats = await llm.api.get(`/v1/stats/${project.tenantId}/${project.projectId}`, {
        headers: project.headers,
      });
      expect(stats.body).toMatchObject({ totalRequests: 2, successfulRequests: 2 });
      expect(stats.body.costUsd).toBeCloseTo(2 * expected.costUsd, 10);
    },
  );

  it('when embeddings answer, then the log has the input tokens and their cost, and stats count it', async () => {
    const project = await llm.projectWithVendors();
    await sdkFor(server.url, project).embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b', 'c'] });
    const [log] = await logsOf(project, 1);
    expect(log).toMatchObject({
      model: 'text-embedding-3-small',
      status: 'success',
      promptTokens: 9,
      completionTokens: 0,
      costUsd: 0.00000018,
    });
    const stats = await llm.api.get(`/v1/stats/${project.tenantId}/${project.projectId}`, { headers: project.headers });
    expect(stats.body.costUsd).toBeCloseTo(0.00000018, 12);
    expect(stats.body.byModel).toEqual([expect.objectContaining({ model: 'text-embedding-3-small', requests: 1 })]);
  });

  it.each(['gpt-4o-mini-trickle-20', 'claude-sonnet-4-5-trickle-20'])(
    'when the client of a %s Responses stream goes away, then the vendor call stops and the tokens so far are logged',
    async (model) => {
      const project = await llm.projectWithVendors();
      const vendor = model.startsWith('gpt') ? llm.openai : llm.anthropic;
      const abandonedBefore = vendor.abandoned;
      const stream = await sdkFor(server.url, project).responses.create({ model, input: 'hello', stream: true });
      let deltas = 0;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') deltas++;
        if (deltas === 3) break; // leaving the loop aborts the SDK's request
      }
      await waitFor(() => vendor.abandoned > abandonedBefore, { timeoutMs: 5_000, intervalMs: 10 });
      const [log] = await logsOf(project, 1);
      expect(log).toMatchObject({ model, status: 'error', error: 'client disconnected' });
      expect(log.completionTokens).toBeGreaterThanOrEqual(3);
      expect(log.promptTokens).toBeGreaterThan(0);
    },
  );
});

describe('retries and fallbacks on the new routes', () => {
  it.each([false, true])(
    'when OpenAI keeps failing a Responses request (stream: %s), then after its retries the claude fallback answers in Responses shape',
    async (stream) => {
      const project = await llm.projectWithVendors();
      llm.openai.faults.push({ status: 500 }, { status: 429 }, { status: 0 });
      const sdk = sdkFor(server.url, project);
      const body = { model: 'gpt-4o-mini', fallbacks: ['claude-haiku-4-5'] };
      const text = stream
        ? (await streamed(sdk, body)).text
        : ((await sdk.responses.create({ ...body, input: 'hello there' } as never)) as OpenAI.Responses.Response)
            .output_text;
      expect(text).toBe('anthropic says: hello there');
      const attempts = await logsOf(project, 4);
      expect(attempts.map((a) => `${a.model}:${a.status}`)).toEqual([
        'gpt-4o-mini:error',
        'gpt-4o-mini:error',
        'gpt-4o-mini:error',
        'claude-haiku-4-5:success',
      ]);
    },
  );

  it('when embeddings keep failing on one model, then the request’s fallback embedding model answers', async () => {
    const project = await llm.projectWithVendors();
    llm.openai.faults.push({ status: 503 }, { status: 503 }, { status: 503 });
    const res = await sdkFor(server.url, project).embeddings.create({
      model: 'text-embedding-3-small',
      input: 'hello',
      fallbacks: ['text-embedding-3-large'],
    } as OpenAI.EmbeddingCreateParams);
    expect(res.data).toHaveLength(1);
    const attempts = await logsOf(project, 4);
    expect(attempts.map((a) => `${a.model}:${a.status}`)).toEqual([
      'text-embedding-3-small:error',
      'text-embedding-3-small:error',
      'text-embedding-3-small:error',
      'text-embedding-3-large:success',
    ]);
  });

  it.each([
    ['breaks the connection', 'gpt-4o-mini-break', 'openai says: ', /connection|ended/i],
    ['sends its error event', 'gpt-4o-mini-stream-error', 'openai says: ', /server had an error/],
    ['sends its error event', 'claude-haiku-4-5-stream-error', 'anthropic says: ', /Overloaded/],
  ])(
    'when the vendor %s after the first byte (%s), then the stream ends with an error event, no fallback is tried and the attempt is logged as failed',
    async (_how, model, before, message) => {
      const project = await llm.projectWithVendors();
      const anthropicBefore = llm.anthropic.requests.length;
      const got = await streamed(sdkFor(server.url, project), { model, fallbacks: ['claude-sonnet-4-5'] });
      expect(got.text).toBe(before);
      expect(got.completed).toBe(false);
      expect(got.errorEvent?.message).toMatch(message);
      expect(llm.anthropic.requests.length - anthropicBefore).toBe(model.startsWith('claude') ? 1 : 0);
      const attempts = await logsOf(project, 1);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ model, status: 'error' });
    },
  );
});

describe('budgets and tenant isolation on the new routes', () => {
  it('when the project’s budget is spent, then responses (whole and streamed) and embeddings are refused with 429 BUDGET_EXCEEDED before any vendor call', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: project.headers, body: { monthlyBudgetUsd: 0 } });
    const sdk = sdkFor(server.url, project);
    const sent = llm.openai.requests.length;
    for (const call of [
      () => sdk.responses.create({ model: 'gpt-4o-mini', input: 'hi' }),
      () => sdk.responses.create({ model: 'gpt-4o-mini', input: 'hi', stream: true }),
      () => sdk.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' }),
    ]) {
      const error = await Promise.resolve(call()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('BUDGET_EXCEEDED');
    }
    expect(llm.openai.requests.length).toBe(sent);
  });

  it('when another project has its own OpenAI key, then its requests carry that key only, and a project without one gets 403', async () => {
    const mine = await llm.projectWithVendors();
    const other = await llm.svc.createProject();
    await llm.api.post('/v1/providers', {
      headers: other.headers,
      body: { providerType: 'openai', apiKey: 'sk-test-other-project-0123456789' },
    });
    await sdkFor(server.url, mine).responses.create({ model: 'gpt-4o-mini', input: 'hi' });
    expect(llm.openai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    for (const call of [
      (sdk: OpenAI) => sdk.responses.create({ model: 'gpt-4o-mini', input: 'hi' }),
      (sdk: OpenAI) => sdk.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' }),
    ]) {
      const refused = await call(sdkFor(server.url, other)).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect(llm.openai.requests.at(-1)!.headers.authorization).toBe('Bearer sk-test-other-project-0123456789');
    }
    const none = await llm.svc.createProject();
    for (const call of [
      (sdk: OpenAI) => sdk.responses.create({ model: 'gpt-4o-mini', input: 'hi' }),
      (sdk: OpenAI) => sdk.responses.create({ model: 'claude-haiku-4-5', input: 'hi', stream: true }),
      (sdk: OpenAI) => sdk.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' }),
    ]) {
      const error = await Promise.resolve(call(sdkFor(server.url, none))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect((error as InstanceType<typeof OpenAI.PermissionDeniedError>).code).toBe('PROVIDER_NOT_CONFIGURED');
    }
  });
});

describe('the new routes through the contract-checked test client', () => {
  it('when /v1/responses is called, then 200, and 400, 401, 403 and 404 come in OpenAI’s shape', async () => {
    const project = await llm.projectWithVendors();
    const bare = await llm.svc.createProject();
    const ok = await llm.api.post('/v1/responses', {
      headers: project.headers,
      body: { model: 'claude-haiku-4-5', input: [{ role: 'user', content: 'hi' }], max_output_tokens: 50 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ object: 'response', status: 'completed', output_text: 'anthropic says: hi' });
    const cases: [Record<string, string>, object, number, string][] = [
      [project.headers, { model: 'gpt-4o', input: 'hi', temperature: 3 }, 400, 'VALIDATION_ERROR'],
      [{ ...project.headers, 'x-secret-key': 'sk_wrong' }, { model: 'gpt-4o', input: 'hi' }, 401, 'UNAUTHORIZED'],
      [bare.headers, { model: 'gpt-4o', input: 'hi' }, 403, 'PROVIDER_NOT_CONFIGURED'],
      [project.headers, { model: 'llama-3', input: 'hi' }, 404, 'model_not_found'],
    ];
    for (const [headers, body, status, code] of cases) {
      const res = await llm.api.post('/v1/responses', { headers, body });
      expect([res.status, res.body.error.code]).toEqual([status, code]);
    }
  });

  it('when /v1/embeddings is called, then 200, and 400, 401, 403 and 404 come in OpenAI’s shape', async () => {
    const project = await llm.projectWithVendors();
    const anthropicOnly = await llm.svc.createProject();
    await llm.api.post('/v1/providers', {
      headers: anthropicOnly.headers,
      body: { providerType: 'anthropic', apiKey: 'sk-ant-test-valid-0123456789' },
    });
    const ok = await llm.api.post('/v1/embeddings', {
      headers: project.headers,
      body: { model: 'text-embedding-3-small', input: 'hi', encoding_format: 'base64' },
    });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.data[0].embedding).toBe('string');
    const cases: [Record<string, string>, object, number, string][] = [
      [project.headers, { model: 'gpt-4o', input: 'hi' }, 400, 'VALIDATION_ERROR'],
      [
        { ...project.headers, 'x-secret-key': 'sk_wrong' },
        { model: 'text-embedding-3-small', input: 'hi' },
        401,
        'UNAUTHORIZED',
      ],
      [anthropicOnly.headers, { model: 'text-embedding-3-small', input: 'hi' }, 403, 'PROVIDER_NOT_CONFIGURED'],
      [project.headers, { model: 'nomic-embed', input: 'hi' }, 404, 'model_not_found'],
    ];
    for (const [headers, body, status, code] of cases) {
      const res = await llm.api.post('/v1/embeddings', { headers, body });
      expect([res.status, res.body.error.code]).toEqual([status, code]);
    }
  });

  it('when one model is looked up, then 200 for a listed one, 404 model_not_found otherwise, 401 without keys', async () => {
    const project = await llm.projectWithVendors();
    const ok = await llm.api.get('/v1/models/claude-haiku-4-5', { headers: project.headers });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      id: 'claude-haiku-4-5',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'anthropic',
    });
    const missing = await llm.api.get('/v1/models/gpt-unheard-of', { headers: project.headers });
    expect([missing.status, missing.body.error.code, missing.body.error.type]).toEqual([
      404,
      'model_not_found',
      'not_found_error',
    ]);
    const unauthorized = await llm.api.get('/v1/models/gpt-4o', {
      headers: { ...project.headers, 'x-secret-key': 'sk_x' },
    });
    expect(unauthorized.status).toBe(401);
  });
});
