import Anthropic from '@anthropic-ai/sdk';
import type { TestProject } from '@platform/testkit';
import { listen, type Listening } from './support/gateway-client';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';
import {
  anthropicSdkFor,
  collectEvents,
  greeting,
  weatherTool,
  type AnthropicCredential,
} from './support/messages-client';

let llm: LlmTestService;
let server: Listening;
let project: TestProject;

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { LLM_VENDOR_TIMEOUT_MS: '5000', LLM_GATEWAY_RETRY_BASE_MS: '1' } });
  project = await llm.svc.createProject();
  await configureVendors(llm.api, project);
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

const credentials: AnthropicCredential[] = ['x-api-key', 'keys'];
const vendorOf = (model: string) => (model.startsWith('gpt') ? 'openai' : 'anthropic');

/** What each stand-in answers "hello there" with, and the usage and cost of that answer through /messages. */
const expected = {
  'claude-sonnet-4-5': {
    text: 'anthropic says: hello there',
    usage: { input_tokens: 20, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 2 },
    cost: '0.0001434',
  },
  'gpt-4o-mini': {
    text: 'openai says: hello there',
    usage: { input_tokens: 7, output_tokens: 7, cache_read_input_tokens: 4 },
    cost: '0.00000555',
  },
} as const;
const models = Object.keys(expected) as (keyof typeof expected)[];

describe.each(credentials)("Anthropic's SDK on /v1/messages with %s", (credential) => {
  const sdk = () => anthropicSdkFor(server.url, project, credential);

  it.each(models)(
    'when %s is asked, then the answer is an Anthropic Message with usage and the cost header',
    async (model) => {
      const { data, response } = await sdk()
        .messages.create({ model, max_tokens: 100, system: 'be brief', messages: greeting })
        .withResponse();
      expect(data).toMatchObject({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: expected[model].text }],
        stop_reason: 'end_turn',
        usage: expected[model].usage,
      });
      expect(data.id).toMatch(/^msg_/);
      expect(response.headers.get('x-llm-cost-usd')).toBe(expected[model].cost);
    },
  );

  it.each(models)(
    'when %s is streamed, then the events come in Anthropic’s order and the final message adds up',
    async (model) => {
      const stream = sdk().messages.stream({ model, max_tokens: 100, messages: greeting });
      const { types, text } = await collectEvents(stream);
      const final = await stream.finalMessage();
      expect(text).toBe(expected[model].text);
      expect(types[0]).toBe('message_start');
      expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
      expect(types).toContain('content_block_start');
      expect(types.filter((t) => t === 'content_block_delta').length).toBeGreaterThan(1);
      expect(final.stop_reason).toBe('end_turn');
      expect(final.usage.output_tokens).toBe(expected[model].usage.output_tokens);
    },
  );

  it.each(models)('when %s is given a tool, then the tool_use block comes back whole and streamed', async (model) => {
    const whole = await sdk().messages.create({ model, max_tokens: 100, messages: greeting, tools: weatherTool });
    expect(whole.stop_reason).toBe('tool_use');
    expect(whole.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'get_weather',
      input: { city: 'Paris' },
    });

    const stream = sdk().messages.stream({ model, max_tokens: 100, messages: greeting, tools: weatherTool });
    const { json } = await collectEvents(stream);
    const final = await stream.finalMessage();
    expect(JSON.parse(json)).toEqual({ city: 'Paris' });
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'get_weather',
      input: { city: 'Paris' },
    });
  });
});

describe('what reaches the vendors from /v1/messages', () => {
  const conversation: Anthropic.MessageCreateParamsNonStreaming = {
    model: 'claude-sonnet-4-5',
    max_tokens: 200,
    system: [{ type: 'text', text: 'be brief' }],
    temperature: 0.5,
    stop_sequences: ['END'],
    metadata: { user_id: 'user-7' },
    tools: weatherTool,
    tool_choice: { type: 'any' },
    messages: [
      ...greeting,
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
          { type: 'text', text: 'and so?' },
        ],
      },
    ],
  };

  it('when a claude model is asked, then Anthropic receives the request exactly as it was sent, its beta header too', async () => {
    await anthropicSdkFor(server.url, project).messages.create(conversation, {
      headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' },
    });
    expect(llm.anthropic.requests.at(-1)!.body).toEqual(conversation);
    expect(llm.anthropic.requests.at(-1)!.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    await anthropicSdkFor(server.url, project)
      .messages.stream(conversation, { headers: { 'anthropic-beta': 'b2' } })
      .finalMessage();
    expect(llm.anthropic.requests.at(-1)!.headers['anthropic-beta']).toBe('b2');
  });

  it('when an OpenAI model is asked, then OpenAI receives the conversation translated to Chat Completions', async () => {
    await anthropicSdkFor(server.url, project).messages.create({ ...conversation, model: 'gpt-4o-mini' });
    expect(llm.openai.requests.at(-1)!.body).toMatchObject({
      model: 'gpt-4o-mini',
      max_completion_tokens: 200,
      temperature: 0.5,
      stop: ['END'],
      user: 'user-7',
      tool_choice: 'required',
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool[0].input_schema } }],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
        { role: 'user', content: 'and so?' },
      ],
    });
    expect(vendorOf('gpt-4o-mini')).toBe('openai');
  });
});

describe('/v1/messages through the contract-checked client', () => {
  it('when a claude model is asked with the key headers, then the answer matches the documented Message', async () => {
    const res = await llm.api.post('/v1/messages', {
      headers: project.headers,
      body: { model: 'claude-haiku-4-5', max_tokens: 20, messages: greeting },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'anthropic says: hello there' }],
    });
  });

  it('when the single credential is wrong, then the 401 is in the documented Anthropic shape', async () => {
    const res = await llm.api.post('/v1/messages', {
      headers: { 'x-api-key': `${project.apiKey}.sk_wrong` },
      body: { model: 'claude-haiku-4-5', max_tokens: 20, messages: greeting },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('when the budget is spent, then the 429 is in the documented Anthropic shape', async () => {
    const spent = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: spent.headers, body: { monthlyBudgetUsd: 0 } });
    const res = await llm.api.post('/v1/messages', {
      headers: spent.headers,
      body: { model: 'claude-haiku-4-5', max_tokens: 20, messages: greeting },
    });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', code: 'BUDGET_EXCEEDED' } });
  });
});
