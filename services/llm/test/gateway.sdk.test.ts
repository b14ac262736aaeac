import OpenAI from 'openai';
import type { TestProject } from '@platform/testkit';
import { collect, hello, listen, sdkFor, weatherTool, type Credential, type Listening } from './support/gateway-client';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;
let project: TestProject;

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { LLM_VENDOR_TIMEOUT_MS: '2000', LLM_GATEWAY_RETRY_BASE_MS: '1' } });
  project = await llm.svc.createProject();
  await configureVendors(llm.api, project);
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

const credentials: Credential[] = ['keys', 'single'];

describe.each(credentials)('the OpenAI SDK with %s credentials', (credential) => {
  const sdk = () => sdkFor(server.url, project, credential);

  it('when a gpt- model is asked, then OpenAI answers in its own shape with usage and the cost header', async () => {
    const { data, response } = await sdk()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: hello })
      .withResponse();
    expect(data.choices[0].message.content).toBe('openai says: hello there');
    expect(data.choices[0].finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    // 7 uncached + 4 cached prompt tokens, 7 output tokens at gpt-4o-mini's prices.
    expect(response.headers.get('x-llm-cost-usd')).toBe('0.00000555');
  });

  it('when a claude- model is asked, then the Anthropic answer comes back translated into OpenAI shape', async () => {
    const { data, response } = await sdk()
      .chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'system', content: 'be brief' }, ...hello],
      })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0].message).toMatchObject({ role: 'assistant', content: 'anthropic says: hello there' });
    expect(data.choices[0].finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({
      prompt_tokens: 25,
      completion_tokens: 5,
      total_tokens: 30,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    // 20 input, 2 cache-write, 3 cache-read and 5 output tokens at claude-sonnet-4-5's prices.
    expect(response.headers.get('x-llm-cost-usd')).toBe('0.0001434');
    expect(llm.anthropic.requests.at(-1)!.body).toMatchObject({ system: 'be brief', max_tokens: 1024 });
  });

  it.each(['gpt-4o-mini', 'claude-sonnet-4-5'])(
    'when %s is streamed, then the chunks carry the whole text, a finish reason and, when asked, the usage before [DONE]',
    async (model) => {
      const stream = await sdk().chat.completions.create({
        model,
        messages: hello,
        stream: true,
        stream_options: { include_usage: true },
      });
      const got = await collect(stream);
      expect(got.text).toBe(`${model.startsWith('gpt') ? 'openai' : 'anthropic'} says: hello there`);
      expect(got.finish).toBe('stop');
      expect(got.usage?.total_tokens).toBe(model.startsWith('gpt') ? 18 : 30);
    },
  );

  it.each(['gpt-4o-mini', 'claude-sonnet-4-5'])(
    'when %s is asked with tools, then the tool call comes back whole and streamed',
    async (model) => {
      const whole = await sdk().chat.completions.create({ model, messages: hello, tools: weatherTool });
      const call = whole.choices[0].message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
      expect(whole.choices[0].finish_reason).toBe('tool_calls');
      expect(call.function.name).toBe('get_weather');
      expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });

      const streamed = await collect(
        await sdk().chat.completions.create({ model, messages: hello, tools: weatherTool, stream: true }),
      );
      expect(streamed.toolName).toBe('get_weather');
      expect(JSON.parse(streamed.args)).toEqual({ city: 'Paris' });
      expect(streamed.finish).toBe('tool_calls');
      expect(streamed.usage).toBeUndefined();
    },
  );
});

describe('the gateway, as the OpenAI SDK sees it', () => {
  it('when a tool result goes to a claude model, then Anthropic receives tool_use and tool_result blocks', async () => {
    await sdkFor(server.url, project).chat.completions.create({
      model: 'claude-haiku-4-5',
      tools: weatherTool,
      tool_choice: 'required',
      messages: [
        ...hello,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
      ],
    });
    expect(llm.anthropic.requests.at(-1)!.body).toMatchObject({
      tool_choice: { type: 'any' },
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hello there' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
  });

  it('when the client did not ask for usage, then OpenAI is still asked for it', async () => {
    await collect(
      await sdkFor(server.url, project).chat.completions.create({ model: 'gpt-4o', messages: hello, stream: true }),
    );
    expect(llm.openai.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('when the request is invalid, then the SDK raises BadRequestError with our code', async () => {
    const error = await sdkFor(server.url, project)
      .chat.completions.create({ model: 'claude-haiku-4-5', messages: hello, n: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('VALIDATION_ERROR');
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('n');
  });

  it('when the body breaks the request schema, then the SDK raises BadRequestError naming the field, and nothing reaches the vendor', async () => {
    const sent = llm.openai.requests.length;
    const error = await sdkFor(server.url, project)
      .chat.completions.create({ model: 'gpt-4o', messages: hello, temperature: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const badRequest = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(badRequest.code).toBe('VALIDATION_ERROR');
    expect(badRequest.param).toBe('temperature');
    expect(badRequest.type).toBe('invalid_request_error');
    expect(llm.openai.requests.length).toBe(sent);
  });

  it('when the single credential is wrong or mixes two projects, then the SDK raises AuthenticationError', async () => {
    const other = await llm.svc.createProject();
    for (const apiKey of [`${project.apiKey}.${other.secretKey}`, 'pk_nope.sk_nope', 'garbage']) {
      const sdk = new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });
      await expect(sdk.chat.completions.create({ model: 'gpt-4o', messages: hello })).rejects.toBeInstanceOf(
        OpenAI.AuthenticationError,
      );
    }
  });

  it('when models are listed, then only the configured vendors’ models appear, in OpenAI’s list shape', async () => {
    const openAiOnly = await llm.svc.createProject();
    await configureVendors(llm.api, openAiOnly, ['openai']);
    const all = await sdkFor(server.url, project, 'single').models.list();
    const some = await sdkFor(server.url, openAiOnly, 'single').models.list();
    expect(all.data.map((m) => m.id)).toEqual(expect.arrayContaining(['gpt-4o-mini', 'claude-sonnet-4-5']));
    expect(some.data.length).toBeGreaterThan(0);
    expect(some.data.every((m) => m.owned_by === 'openai' && m.object === 'model')).toBe(true);
    const res = await llm.api.get('/v1/models', { headers: (await llm.svc.createProject()).headers });
    expect(res.body).toEqual({ object: 'list', data: [] });
  });
});
