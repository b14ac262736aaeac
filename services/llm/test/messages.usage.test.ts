import Anthropic from '@anthropic-ai/sdk';
import type { TestProject } from '@platform/testkit';
import { waitFor } from '@platform/testkit';
import { listen, type Listening } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';
import { anthropicSdkFor, collectEvents, greeting } from './support/messages-client';

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

const ask = (model: string, extra: object = {}) =>
  ({ model, max_tokens: 100, messages: greeting, ...extra }) as Anthropic.MessageCreateParamsNonStreaming;

/** A streamed answer's text, read to its end; its cost trailer read through the raw response. */
async function streamed(project: TestProject, body: Anthropic.MessageCreateParamsNonStreaming) {
  const res = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': `${project.apiKey}.${project.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const text = await res.text();
  return { res, text };
}

describe('usage and cost of /v1/messages', () => {
  it.each([
    ['claude-sonnet-4-5', { promptTokens: 25, completionTokens: 5, costUsd: 0.0001434 }],
    ['gpt-4o-mini', { promptTokens: 11, completionTokens: 7, costUsd: 0.00000555 }],
  ])(
    'when %s answers whole and streamed, then each log and the stats carry the same tokens and cost',
    async (model, usage) => {
      const project = await llm.projectWithVendors();
      const sdk = anthropicSdkFor(server.url, project);
      await sdk.messages.create(ask(model));
      await collectEvents(sdk.messages.stream(ask(model)));
      const logs = await logsOf(project, 2);
      expect(logs).toHaveLength(2);
      for (const log of logs) expect(log).toMatchObject({ model, status: 'success', ...usage });
      const stats = await llm.api.get(`/v1/stats/${project.tenantId}/${project.projectId}`, {
        headers: project.headers,
      });
      expect(stats.body).toMatchObject({ totalRequests: 2, successfulRequests: 2 });
      expect(stats.body.costUsd).toBeCloseTo(2 * usage.costUsd, 10);
    },
  );

  it('when a stream ends, then its cost goes out as the x-llm-cost-usd trailer', async () => {
    const project = await llm.projectWithVendors();
    const raw = await new Promise<{ trailers: NodeJS.Dict<string>; body: string }>((resolve, reject) => {
      const url = new URL(`${server.url}/v1/messages`);
      // node:http, which reads trailers (fetch does not show them).
      void import('node:http').then(({ request }) => {
        const req = request(url, {
          method: 'POST',
          headers: { 'x-api-key': `${project.apiKey}.${project.secretKey}`, 'content-type': 'application/json' },
        });
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ trailers: res.trailers, body }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ ...ask('claude-sonnet-4-5'), stream: true }));
      });
    });
    expect(raw.body).toMatch(/^event: message_start\n/);
    expect(raw.body).toMatch(/event: message_stop\ndata: \{"type":"message_stop"\}\n\n$/);
    expect(raw.trailers['x-llm-cost-usd']).toBe('0.0001434');
  });

  it.each(['claude-sonnet-4-5-trickle-20', 'gpt-4o-mini-trickle-20'])(
    'when the client of a %s stream goes away, then the vendor call stops and the tokens used so far are logged',
    async (model) => {
      const project = await llm.projectWithVendors();
      const vendor = model.startsWith('gpt') ? llm.openai : llm.anthropic;
      const abandonedBefore = vendor.abandoned;
      const stream = await anthropicSdkFor(server.url, project).messages.create({ ...ask(model), stream: true });
      let received = 0;
      for await (const event of stream) {
        if (event.type === 'content_block_delta') received++;
        if (received === 3) break; // leaving the loop aborts the SDK's request
      }
      await waitFor(() => vendor.abandoned > abandonedBefore, { timeoutMs: 5_000, intervalMs: 10 });
      const [log] = await logsOf(project, 1);
      expect(log).toMatchObject({ model, status: 'error', error: 'client disconnected' });
      expect(log.completionTokens).toBeGreaterThanOrEqual(3);
      expect(log.promptTokens).toBeGreaterThan(0);
    },
  );
});

describe.each([false, true])('retries and fallbacks on /v1/messages (stream: %s)', (stream) => {
  async function text(project: TestProject, body: Anthropic.MessageCreateParamsNonStreaming): Promise<string> {
    const sdk = anthropicSdkFor(server.url, project);
    if (!stream) {
      const message = await sdk.messages.create(body);
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    }
    return (await collectEvents(sdk.messages.stream(body))).text;
  }

  it('when Claude keeps failing, then after its retries the request’s OpenAI fallback answers, translated', async () => {
    const project = await llm.projectWithVendors();
    llm.anthropic.faults.push({ status: 529 }, { status: 500 }, { status: 0 });
    expect(await text(project, ask('claude-sonnet-4-5', { fallbacks: ['gpt-4o-mini'] }))).toBe(
      'openai says: hello there',
    );
    const logs = await logsOf(project, 4);
    expect(logs.map((l) => `${l.model}:${l.status}`)).toEqual([
      'claude-sonnet-4-5:error',
      'claude-sonnet-4-5:error',
      'claude-sonnet-4-5:error',
      'gpt-4o-mini:success',
    ]);
  });

  it('when an OpenAI model fails at once, then the project’s default fallback (Claude) answers as it is', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/fallbacks', { headers: project.headers, body: { fallbacks: ['claude-haiku-4-5'] } });
    llm.openai.faults.push({ status: 429, headers: { 'retry-after': '30' } });
    expect(await text(project, ask('gpt-4o'))).toBe('anthropic says: hello there');
  });
});

describe('a /v1/messages stream that fails after its first byte', () => {
  it.each(['claude-haiku-4-5-stream-error', 'gpt-4o-mini-break'])(
    'when %s fails mid-stream, then the stream ends with an error event, no fallback is tried and the attempt is logged',
    async (model) => {
      const project = await llm.projectWithVendors();
      const { res, text } = await streamed(project, ask(model, { fallbacks: ['claude-sonnet-4-5'] }));
      expect(res.status).toBe(200);
      expect(text).toMatch(
        /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"[^"]+"\}\}\n\n$/,
      );
      expect(text).not.toContain('message_stop');
      const logs = await logsOf(project, 1);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ model, status: 'error' });
    },
  );
});

describe('budgets on /v1/messages', () => {
  it('when the budget is spent, then the SDK raises RateLimitError and no vendor is called', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: project.headers, body: { monthlyBudgetUsd: 0 } });
    const before = llm.anthropic.requests.length;
    const error = await anthropicSdkFor(server.url, project)
      .messages.create(ask('claude-sonnet-4-5'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', code: 'BUDGET_EXCEEDED' },
    });
    expect(llm.anthropic.requests.length).toBe(before);
  });
});
