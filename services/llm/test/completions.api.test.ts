import { waitFor, type HttpStub, type TestProject, type TestService } from '@platform/testkit';
import type { ApiClient } from '@platform/testkit';
import { user } from './support/batch-helpers';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';
import { ANTHROPIC_KEY, OPENAI_KEY } from './support/vendor-stubs';

let llm: LlmTestService;
let svc: TestService;
let openai: HttpStub;
let anthropic: HttpStub;
let api: ApiClient;
let project: TestProject;

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { LLM_VENDOR_TIMEOUT_MS: '1000' } });
  ({ svc, api, openai, anthropic } = llm);
  project = await svc.createProject();
  await configureVendors(api, project);
});

afterAll(() => llm.close());

describe('POST /v1/completions', () => {
  it('when the model starts with gpt-, then OpenAI answers with the project key and usage in OpenAI naming', async () => {
    const res = await api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o-mini', messages: user('hello') },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      completion: 'openai says: hello',
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'openai',
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    });
    expect(res.body.createdAt).toMatch(/\.\d{3}Z$/);
    const sent = openai.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 1 });
  });

  it.each(['o1-mini', 'o3-mini', 'o4-mini', 'chatgpt-4o-latest'])(
    'when the model is %s, then it is routed to OpenAI',
    async (model) => {
      const res = await api.post('/v1/completions', { headers: project.headers, body: { model, messages: user('x') } });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('openai');
    },
  );

  it('when the model starts with claude-, then Anthropic answers, system messages move to `system` and max_tokens defaults', async () => {
    const res = await api.post('/v1/completions', {
      headers: project.headers,
      body: {
        model: 'claude-sonnet-4-5',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
        temperature: 0.2,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      completion: 'anthropic says: hi',
      provider: 'anthropic',
      usage: { prompt_tokens: 25, completion_tokens: 5, total_tokens: 30 },
    });
    const sent = anthropic.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      temperature: 0.2,
      system: 'be brief',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('when max_tokens is given, then it is passed on to the vendor', async () => {
    await api
      .post('/v1/completions', {
        headers: project.headers,
        body: { model: 'claude-haiku-4-5', messages: user('x'), max_tokens: 55 },
      })
      .then((r) => expect(r.status).toBe(200));
    expect(anthropic.requests.at(-1)!.body).toMatchObject({ max_tokens: 55 });
  });

  it('when a reasoning model (o-series) gets max_tokens, then OpenAI receives it as max_completion_tokens', async () => {
    await api
      .post('/v1/completions', {
        headers: project.headers,
        body: { model: 'o3-mini', messages: user('x'), max_tokens: 40 },
      })
      .then((r) => expect(r.status).toBe(200));
    expect(openai.requests.at(-1)!.body).toMatchObject({ max_completion_tokens: 40 });
    expect(openai.requests.at(-1)!.body).not.toHaveProperty('max_tokens');
    await api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o', messages: user('x'), max_tokens: 40 },
    });
    expect(openai.requests.at(-1)!.body).toMatchObject({ max_tokens: 40 });
  });

  it('when the model is unknown, then 400 and no vendor is called', async () => {
    const before = openai.requests.length + anthropic.requests.length;
    const res = await api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'llama-3', messages: user('x') },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(openai.requests.length + anthropic.requests.length).toBe(before);
  });

  it.each([
    [{ temperature: 2.5 }, 'temperature'],
    [{ temperature: -0.1 }, 'temperature'],
    [{ max_tokens: 0 }, 'max_tokens'],
    [{ max_tokens: 1.5 }, 'max_tokens'],
    [{ messages: [] }, 'messages'],
    [{ messages: [{ role: 'user' }] }, 'messages.0.content'],
    [{ model: undefined }, 'model'],
  ])('when the body has %j, then 400 names %s', async (patch, path) => {
    const res = await api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o', messages: user('x'), ...patch },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('when the project has not configured the vendor, then 403 PROVIDER_NOT_CONFIGURED', async () => {
    const other = await svc.createProject();
    const res = await api.post('/v1/completions', {
      headers: other.headers,
      body: { model: 'claude-sonnet-4-5', messages: user('x') },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
  });

  it("when the vendor answers an error, then 500 VENDOR_ERROR carries the vendor's message", async () => {
    const res = await api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-nonexistent', messages: user('x') },
    });
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({
      code: 'VENDOR_ERROR',
      message: '404 The model `gpt-nonexistent` does not exist or you do not have access to it.',
    });
    const anthropicError = await api.post('/v1/completions', {
      headers: project.headers,
      body: {
        model: 'claude-overloaded',
        messages: user('x'),
      },
    });
    expect(anthropicError.status).toBe(500);
    expect(anthropicError.body.error.message).toBe('400 model: claude-overloaded is not supported');
  });

  it('when the stored key is wrong, then 500 VENDOR_ERROR and the key appears nowhere in the answer', async () => {
    const wrong = await svc.createProject();
    const wrongKey = 'sk-wrong-secret-key-987654321';
    await api
      .post('/v1/providers', { headers: wrong.headers, body: { providerType: 'llm_vendor_a', apiKey: wrongKey } })
      .then((r) => expect(r.status).toBe(200));
    const res = await api.post('/v1/completions', {
      headers: wrong.headers,
      body: { model: 'gpt-4o', messages: user('x') },
    });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('VENDOR_ERROR');
    expect(res.body.error.message).toContain('Incorrect API key provided');
    expect(JSON.stringify(res.body)).not.toContain(wrongKey);
  });

  it('when the vendor does not answer within LLM_VENDOR_TIMEOUT_MS, then 502 VENDOR_ERROR', async () => {
    const started = Date.now();
    const res = await api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o-slow', messages: user('x') },
    });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('VENDOR_ERROR');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('when the keys are missing, then 401', async () => {
    const res = await api.post('/v1/completions', { headers: {}, body: { model: 'gpt-4o', messages: user('x') } });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/providers', () => {
  it('when a key is stored, then the answer shows the canonical type and never the key, and the row holds only ciphertext', async () => {
    const fresh = await svc.createProject();
    const res = await api.post('/v1/providers', {
      headers: fresh.headers,
      body: {
        providerType: 'llm_vendor_a',
        apiKey: 'sk-plaintext-must-not-leak',
        organizationId: 'org-1',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      provider: { id: expect.any(String), providerType: 'openai', configured: true, createdAt: expect.any(String) },
    });
    expect(JSON.stringify(res.body)).not.toContain('sk-plaintext');
    const row = await svc.deps.db('providers').where({ project_id: fresh.projectId }).first();
    expect(row.api_key_enc).not.toContain('sk-plaintext');
    expect(svc.deps.secrets.decrypt(row.api_key_enc)).toBe('sk-plaintext-must-not-leak');
    expect(row.organization_id).toBe('org-1');
  });

  it('when the same vendor is stored again, then the row is replaced (same id) and the new key is used at once', async () => {
    const fresh = await svc.createProject();
    const first = await api.post('/v1/providers', {
      headers: fresh.headers,
      body: {
        providerType: 'openai',
        apiKey: 'sk-old-key-0000000',
      },
    });
    expect(
      (await api.post('/v1/completions', { headers: fresh.headers, body: { model: 'gpt-4o', messages: user('x') } }))
        .status,
    ).toBe(500);
    const second = await api.post('/v1/providers', {
      headers: fresh.headers,
      body: { providerType: 'openai', apiKey: OPENAI_KEY },
    });
    expect(second.body.provider.id).toBe(first.body.provider.id);
    expect(second.body.provider.createdAt).toBe(first.body.provider.createdAt);
    expect(
      (await api.post('/v1/completions', { headers: fresh.headers, body: { model: 'gpt-4o', messages: user('x') } }))
        .status,
    ).toBe(200);
  });

  it('when organizationId comes with anthropic, then 400', async () => {
    const res = await api.post('/v1/providers', {
      headers: project.headers,
      body: {
        providerType: 'llm_vendor_b',
        apiKey: 'k',
        organizationId: 'org',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('organizationId');
  });

  it('when the type is unknown or the key missing, then 400', async () => {
    expect(
      (await api.post('/v1/providers', { headers: project.headers, body: { providerType: 'mistral', apiKey: 'k' } }))
        .status,
    ).toBe(400);
    expect(
      (await api.post('/v1/providers', { headers: project.headers, body: { providerType: 'openai' } })).status,
    ).toBe(400);
  });
});

describe('POST /v1/providers/test', () => {
  it('when the stored key is accepted, then success true after one models call', async () => {
    const before = openai.requests.length;
    const res = await api.post('/v1/providers/test', {
      headers: project.headers,
      body: { providerType: 'llm_vendor_a' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String), providerType: 'openai' });
    expect(openai.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    const anthropicRes = await api.post('/v1/providers/test', {
      headers: project.headers,
      body: { providerType: 'anthropic' },
    });
    expect(anthropicRes.body.success).toBe(true);
  });

  it('when the key is refused, then 200 with success false and the vendor message, not a 500', async () => {
    const res = await api.post('/v1/providers/test', {
      headers: project.headers,
      body: {
        providerType: 'anthropic',
        apiKey: 'sk-ant-wrong-key-123456',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, message: '401 invalid x-api-key', providerType: 'anthropic' });
    const openaiRes = await api.post('/v1/providers/test', {
      headers: project.headers,
      body: {
        providerType: 'openai',
        apiKey: 'sk-wrong-openai-key-123',
      },
    });
    expect(openaiRes.body.success).toBe(false);
    expect(openaiRes.body.message).not.toContain('sk-wrong-openai-key-123');
  });

  it('when nothing is configured for the vendor, then 403 PROVIDER_NOT_CONFIGURED', async () => {
    const fresh = await svc.createProject();
    const res = await api.post('/v1/providers/test', { headers: fresh.headers, body: { providerType: 'openai' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
  });
});

describe('completion logs', () => {
  it('when completions ran, then each is logged with model, provider, status, tokens and latency', async () => {
    const fresh = await svc.createProject();
    await api.post('/v1/providers', { headers: fresh.headers, body: { providerType: 'openai', apiKey: OPENAI_KEY } });
    await api.post('/v1/completions', { headers: fresh.headers, body: { model: 'gpt-4o', messages: user('a') } });
    await api.post('/v1/completions', {
      headers: fresh.headers,
      body: { model: 'gpt-nonexistent', messages: user('b') },
    });
    const logs = await waitFor(async () => {
      const res = await api.get(`/v1/logs/${fresh.tenantId}/${fresh.projectId}`, { headers: fresh.headers });
      return res.body.total === 2 ? res.body.logs : null;
    });
    expect(logs[0]).toMatchObject({
      model: 'gpt-nonexistent',
      provider: 'openai',
      status: 'error',
      totalTokens: 0,
      batchId: null,
    });
    expect(logs[0].error).toContain('does not exist');
    expect(logs[1]).toMatchObject({
      model: 'gpt-4o',
      provider: 'openai',
      status: 'success',
      promptTokens: 11,
      completionTokens: 7,
      totalTokens: 18,
      error: null,
    });
    expect(logs[1].latencyMs).toBeGreaterThanOrEqual(0);
  });
});
