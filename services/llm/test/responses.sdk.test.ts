import OpenAI from 'openai';
import type { TestProject } from '@platform/testkit';
import { listen, sdkFor, type Credential, type Listening } from './support/gateway-client';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';
import { expectedEmbedding } from './support/openai-responses-stub';

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

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

const vendorOf = (model: string) => (model.startsWith('gpt') ? 'openai' : 'anthropic');

/** A Responses event stream put together: event types in order, text, function call, final response. */
async function collectEvents(stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>) {
  const types: string[] = [];
  let text = '';
  let args = '';
  let call: { name: string; call_id: string } | undefined;
  let completed: OpenAI.Responses.Response | undefined;
  const sequence: number[] = [];
  for await (const event of stream) {
    types.push(event.type);
    sequence.push(event.sequence_number);
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (event.type === 'response.function_call_arguments.delta') args += event.delta;
    if (event.type === 'response.output_item.added' && event.item.type === 'function_call') call = event.item;
    if (event.type === 'response.completed') completed = event.response;
  }
  return { types, text, args, call, completed, sequence };
}

const credentials: Credential[] = ['keys', 'single'];

describe.each(credentials)('responses.create through the OpenAI SDK with %s credentials', (credential) => {
  const sdk = () => sdkFor(server.url, project, credential);

  it.each(['gpt-4o-mini', 'claude-sonnet-4-5'])(
    'when %s is asked whole, then the answer is a Response with output_text, usage and the cost header',
    async (model) => {
      const { data, response } = await sdk()
        .responses.create({ model, input: 'hello there', instructions: 'be brief' })
        .withResponse();
      expect(data.object).toBe('response');
      expect(data.status).toBe('completed');
      expect(data.output_text).toBe(`${vendorOf(model)} says: hello there`);
      expect(data.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
      if (model.startsWith('gpt')) {
        expect(data.usage).toMatchObject({ input_tokens: 11, output_tokens: 7, total_tokens: 18 });
        expect(response.headers.get('x-llm-cost-usd')).toBe('0.00000555');
        // OpenAI gets the Responses request itself, never a chat translation.
        expect(llm.openai.requests.at(-1)).toMatchObject({
          path: '/v1/responses',
          body: { model, input: 'hello there', instructions: 'be brief' },
        });
      } else {
        expect(data.usage).toMatchObject({
          input_tokens: 25,
          input_tokens_details: { cached_tokens: 3 },
          output_tokens: 5,
          total_tokens: 30,
        });
        expect(response.headers.get('x-llm-cost-usd')).toBe('0.0001434');
        expect(llm.anthropic.requests.at(-1)!.body).toMatchObject({
          system: 'be brief',
          messages: [{ role: 'user', content: [{ type: 'text', text: 'hello there' }] }],
        });
      }
    },
  );

  it.each(['gpt-4o-mini', 'claude-sonnet-4-5'])(
    'when %s is streamed, then the events run from response.created through text deltas to response.completed with usage',
    async (model) => {
      const got = await collectEvents(await sdk().responses.create({ model, input: 'hello there', stream: true }));
      expect(got.types[0]).toBe('response.created');
      expect(got.types.at(-1)).toBe('response.completed');
      expect(got.types).toContain('response.output_item.added');
      expect(got.types).toContain('response.output_item.done');
      expect(got.sequence).toEqual(got.sequence.map((_, i) => i));
      expect(got.text).toBe(`${vendorOf(model)} says: hello there`);
      expect(got.completed?.usage?.total_tokens).toBe(model.startsWith('gpt') ? 18 : 30);
    },
  );

  it.each(['gpt-4o-mini', 'claude-sonnet-4-5'])(
    'when %s is given a function tool, then the function call comes back whole and as argument deltas',
    async (model) => {
      const whole = await sdk().responses.create({ model, input: 'weather in Paris?', tools: [weather] });
      const call = whole.output.find((item) => item.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
      expect(JSON.parse((call as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual({ city: 'Paris' });

      const streamed = await collectEvents(
        await sdk().responses.create({ model, input: 'weather in Paris?', tools: [weather], stream: true }),
      );
      expect(streamed.call?.name).toBe('get_weather');
      expect(streamed.types).toContain('response.function_call_arguments.done');
      expect(JSON.parse(streamed.args)).toEqual({ city: 'Paris' });
      const done = streamed.completed?.output.find((item) => item.type === 'function_call');
      expect(JSON.parse((done as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual({ city: 'Paris' });
    },
  );
});

describe('the Responses translation for claude models', () => {
  it('when a function call and its output go back to a claude model, then Anthropic receives tool_use and tool_result blocks', async () => {
    await sdkFor(server.url, project).responses.create({
      model: 'claude-haiku-4-5',
      tools: [weather],
      tool_choice: 'required',
      max_output_tokens: 300,
      temperature: 0.2,
      input: [
        { role: 'user', content: 'weather in Paris?' },
        { type: 'function_call', call_id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'toolu_1', output: 'sunny' },
      ],
    });
    expect(llm.anthropic.requests.at(-1)!.body).toMatchObject({
      max_tokens: 300,
      temperature: 0.2,
      tool_choice: { type: 'any' },
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
  });

  it('when a claude model is asked to continue a stored response, then 400 says the gateway keeps none', async () => {
    const error = await sdkFor(server.url, project)
      .responses.create({ model: 'claude-haiku-4-5', input: 'and then?', previous_response_id: 'resp_123' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/keeps no responses/);
  });

  it('when text.format asks for a JSON schema on a gpt model, then OpenAI receives it as sent', async () => {
    const format = {
      type: 'json_schema' as const,
      name: 'city',
      schema: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
    };
    await sdkFor(server.url, project).responses.create({ model: 'gpt-4o', input: 'hi', text: { format } });
    expect(llm.openai.requests.at(-1)!.body).toMatchObject({ text: { format } });
  });
});

describe('embeddings.create through the OpenAI SDK', () => {
  it('when float is asked, then each input gets its vector, with usage and the cost header', async () => {
    const { data, response } = await sdkFor(server.url, project)
      .embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'three'], encoding_format: 'float' })
      .withResponse();
    expect(data.data.map((entry) => entry.embedding)).toEqual([
      expectedEmbedding('one', 8),
      expectedEmbedding('three', 8),
    ]);
    expect(data.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
    // 6 tokens at text-embedding-3-small's 0.02 USD per million.
    expect(response.headers.get('x-llm-cost-usd')).toBe('0.00000012');
    expect(llm.openai.requests.at(-1)!.body).toMatchObject({ encoding_format: 'float' });
  });

  it('when base64 is asked, then the vector comes as base64 float32, and the SDK default (base64, decoded) gives the same numbers', async () => {
    const sdk = sdkFor(server.url, project, 'single');
    const base64 = await sdk.embeddings.create({
      model: 'text-embedding-3-large',
      input: 'hello',
      dimensions: 4,
      encoding_format: 'base64',
    });
    const raw = base64.data[0].embedding as unknown as string;
    expect(typeof raw).toBe('string');
    const bytes = Buffer.from(raw, 'base64');
    const floats = Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
    const expected = expectedEmbedding('hello', 4);
    floats.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 5));
    const decoded = await sdk.embeddings.create({ model: 'text-embedding-3-large', input: 'hello', dimensions: 4 });
    decoded.data[0].embedding.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 5));
  });

  it('when a claude model is asked for embeddings, then 400 in OpenAI shape says Anthropic has none', async () => {
    const error = await sdkFor(server.url, project)
      .embeddings.create({ model: 'claude-sonnet-4-5', input: 'hello' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/Anthropic offers none/);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('model');
  });
});

describe('models.retrieve and unknown models', () => {
  it('when a priced model of a configured vendor is retrieved, then OpenAI’s model object comes back', async () => {
    const sdk = sdkFor(server.url, project);
    expect(await sdk.models.retrieve('gpt-4o-mini')).toMatchObject({
      id: 'gpt-4o-mini',
      object: 'model',
      owned_by: 'openai',
    });
    expect(await sdk.models.retrieve('text-embedding-3-small')).toMatchObject({ owned_by: 'openai' });
  });

  it('when the model is unknown or its vendor not configured, then the SDK raises NotFoundError with model_not_found', async () => {
    const openAiOnly = await llm.svc.createProject();
    await configureVendors(llm.api, openAiOnly, ['openai']);
    for (const [who, id] of [
      [project, 'llama-3'],
      [openAiOnly, 'claude-sonnet-4-5'],
    ] as const) {
      const error = await sdkFor(server.url, who)
        .models.retrieve(id)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    }
  });

  it.each([
    ['responses', (sdk: OpenAI) => sdk.responses.create({ model: 'llama-3', input: 'hi' })],
    ['responses streamed', (sdk: OpenAI) => sdk.responses.create({ model: 'llama-3', input: 'hi', stream: true })],
    [
      'chat completions',
      (sdk: OpenAI) => sdk.chat.completions.create({ model: 'llama-3', messages: [{ role: 'user', content: 'hi' }] }),
    ],
    ['embeddings', (sdk: OpenAI) => sdk.embeddings.create({ model: 'llama-3', input: 'hi' })],
  ])('when %s names an unknown model, then 404 model_not_found, as OpenAI answers', async (_route, call) => {
    const sent = llm.openai.requests.length;
    const error = await Promise.resolve(call(sdkFor(server.url, project))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).param).toBe('model');
    expect(llm.openai.requests.length).toBe(sent);
  });
});
