import { ChatOpenAI } from '@langchain/openai';
import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import type { TestProject } from '@platform/testkit';
import { STRUCTURED_OUTPUT_TOOL } from '../src/vendors/structured-output';
import { collect, hello, listen, sdkFor, weatherTool, type Listening } from './support/gateway-client';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;
let project: TestProject;

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { LLM_VENDOR_TIMEOUT_MS: '5000' } });
  project = await llm.svc.createProject();
  await configureVendors(llm.api, project);
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

const Weather = z.object({ city: z.string(), celsius: z.number(), sunny: z.boolean(), tags: z.array(z.string()) });
/** What the Anthropic stand-in fills the schema with, as a model forced to answer through the tool does. */
const answer = { city: 'Paris', celsius: 42, sunny: true, tags: ['Paris'] };
const lastAnthropicBody = () => llm.anthropic.requests.at(-1)!.body as Record<string, unknown>;

describe('structured output on /v1/chat/completions for a Claude model', () => {
  it("when the OpenAI SDK's parse() is given a Zod schema, then the answer is the parsed object, through Anthropic's forced tool", async () => {
    const completion = await sdkFor(server.url, project, 'single').chat.completions.parse({
      model: 'claude-sonnet-4-5',
      messages: hello,
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    const message = completion.choices[0].message;
    expect(message.parsed).toEqual(answer);
    expect(JSON.parse(message.content!)).toEqual(answer);
    expect(message.tool_calls ?? []).toEqual([]);
    expect(completion.choices[0].finish_reason).toBe('stop');
    const sent = lastAnthropicBody();
    expect(sent.tool_choice).toEqual({ type: 'tool', name: STRUCTURED_OUTPUT_TOOL });
    expect(sent.tools).toEqual([
      expect.objectContaining({
        name: STRUCTURED_OUTPUT_TOOL,
        input_schema: expect.objectContaining({ type: 'object', required: ['city', 'celsius', 'sunny', 'tags'] }),
      }),
    ]);
  });

  it('when the structured answer is streamed, then the content chunks put together are the JSON the SDK parses', async () => {
    const runner = sdkFor(server.url, project).chat.completions.stream({
      model: 'claude-sonnet-4-5',
      messages: hello,
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0].message.parsed).toEqual(answer);
    expect(final.choices[0].finish_reason).toBe('stop');
  });

  it('when json_object is asked, then the content is a JSON object, whole and streamed', async () => {
    const sdk = sdkFor(server.url, project);
    const request = { model: 'claude-haiku-4-5', messages: hello, response_format: { type: 'json_object' as const } };
    const whole = await sdk.chat.completions.create(request);
    expect(JSON.parse(whole.choices[0].message.content!)).toEqual({});
    const streamed = await collect(await sdk.chat.completions.create({ ...request, stream: true }));
    expect(JSON.parse(streamed.text)).toEqual({});
  });

  it('when the model answers in prose anyway, then the SDK raises an error instead of returning the prose', async () => {
    const sdk = sdkFor(server.url, project);
    const request = {
      model: 'claude-sonnet-4-5-prose',
      messages: hello,
      response_format: zodResponseFormat(Weather, 'weather'),
    };
    const whole = await sdk.chat.completions.parse(request).catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(OpenAI.InternalServerError);
    expect((whole as Error).message).toMatch(/not valid for the response format/);
    const streamed = await collect(await sdk.chat.completions.create({ ...request, stream: true })).catch(
      (e: unknown) => e,
    );
    expect(streamed).toBeInstanceOf(OpenAI.APIError);
  });

  it('when the request has tools too, then the model may call them (a tool must be called, its own or the answer)', async () => {
    const completion = await sdkFor(server.url, project).chat.completions.create({
      model: 'claude-sonnet-4-5',
      messages: hello,
      tools: weatherTool,
      response_format: zodResponseFormat(Weather, 'weather'),
    });
    expect(completion.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
    expect(lastAnthropicBody().tool_choice).toEqual({ type: 'any' });
  });

  it("when LangChain's withStructuredOutput is used on a Claude model, then it returns the object", async () => {
    const model = new ChatOpenAI({
      model: 'claude-sonnet-4-5',
      apiKey: `${project.apiKey}.${project.secretKey}`,
      configuration: { baseURL: `${server.url}/v1` },
      maxRetries: 0,
    });
    const weather = await model.withStructuredOutput(Weather).invoke('What is the weather in Paris?');
    expect(weather).toEqual(answer);
    expect(lastAnthropicBody().tool_choice).toEqual({ type: 'tool', name: STRUCTURED_OUTPUT_TOOL });
  });
});

describe('structured output on /v1/responses for a Claude model', () => {
  it("when the OpenAI SDK's responses.parse() is given a Zod text format, then output_parsed is the object, through Anthropic's forced tool", async () => {
    const response = await sdkFor(server.url, project, 'single').responses.parse({
      model: 'claude-sonnet-4-5',
      input: 'What is the weather in Paris?',
      text: { format: zodTextFormat(Weather, 'weather') },
    });
    expect(response.output_parsed).toEqual(answer);
    expect(JSON.parse(response.output_text)).toEqual(answer);
    expect(response.output.map((item) => item.type)).toEqual(['message']);
    expect(response.status).toBe('completed');
    const sent = lastAnthropicBody();
    expect(sent.tool_choice).toEqual({ type: 'tool', name: STRUCTURED_OUTPUT_TOOL });
    expect(sent.tools).toEqual([
      expect.objectContaining({
        name: STRUCTURED_OUTPUT_TOOL,
        input_schema: expect.objectContaining({ type: 'object', required: ['city', 'celsius', 'sunny', 'tags'] }),
      }),
    ]);
  });

  it('when the structured answer is streamed, then the text deltas put together are the JSON the SDK parses, and no function call shows', async () => {
    const stream = sdkFor(server.url, project).responses.stream({
      model: 'claude-sonnet-4-5',
      input: 'What is the weather in Paris?',
      text: { format: zodTextFormat(Weather, 'weather') },
    });
    let text = '';
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const final = await stream.finalResponse();
    expect(JSON.parse(text)).toEqual(answer);
    expect(final.output_parsed).toEqual(answer);
    expect(final.output.map((item) => item.type)).toEqual(['message']);
    expect(types).not.toContain('response.function_call_arguments.delta');
    expect(types.at(-1)).toBe('response.completed');
    expect(lastAnthropicBody().tool_choice).toEqual({ type: 'tool', name: STRUCTURED_OUTPUT_TOOL });
  });

  it('when json_object is asked, then the text is a JSON object, whole and streamed', async () => {
    const sdk = sdkFor(server.url, project);
    const request = { model: 'claude-haiku-4-5', input: 'hello', text: { format: { type: 'json_object' as const } } };
    const whole = await sdk.responses.create(request);
    expect(JSON.parse(whole.output_text)).toEqual({});
    let streamed = '';
    for await (const event of await sdk.responses.create({ ...request, stream: true })) {
      if (event.type === 'response.output_text.delta') streamed += event.delta;
    }
    expect(JSON.parse(streamed)).toEqual({});
  });

  it('when the model answers in prose anyway, then parse() raises an error and the stream ends with an error event, never the prose', async () => {
    const sdk = sdkFor(server.url, project);
    const request = {
      model: 'claude-sonnet-4-5-prose',
      input: 'What is the weather in Paris?',
      text: { format: zodTextFormat(Weather, 'weather') },
    };
    const whole = await sdk.responses.parse(request).catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(OpenAI.InternalServerError);
    expect((whole as Error).message).toMatch(/not valid for the response format/);
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await sdk.responses.create({ ...request, stream: true })) events.push(event);
    const types = events.map((event) => event.type);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/not valid for the response format/),
    });
    expect(types).not.toContain('response.completed');
    expect(types).not.toContain('response.output_text.delta');
  });
});
