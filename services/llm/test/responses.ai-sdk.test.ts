import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { TestProject } from '@platform/testkit';
import { listen, type Listening } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;
let project: TestProject;

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { LLM_VENDOR_TIMEOUT_MS: '5000' } });
  project = await llm.projectWithVendors();
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

/** The AI SDK's documented default: `createOpenAI({ baseURL })(model)`, which speaks the Responses API. */
const modelOf = (id: string) =>
  createOpenAI({ baseURL: `${server.url}/v1`, apiKey: `${project.apiKey}.${project.secretKey}` })(id);

const vendorOf = (model: string) => (model.startsWith('gpt') ? 'openai' : 'anthropic');

const weather = tool({
  description: 'Weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

describe.each(['gpt-4o-mini', 'claude-sonnet-4-5'])('the Vercel AI SDK’s default OpenAI provider on %s', (model) => {
  it('when generateText is called, then the text and usage come back through /v1/responses', async () => {
    const before = llm.openai.requests.length;
    const result = await generateText({ model: modelOf(model), prompt: 'hello there' });
    expect(result.text).toBe(`${vendorOf(model)} says: hello there`);
    expect(result.usage.inputTokens).toBe(model.startsWith('gpt') ? 11 : 25);
    expect(result.usage.outputTokens).toBe(model.startsWith('gpt') ? 7 : 5);
    if (model.startsWith('gpt'))
      expect(llm.openai.requests.slice(before).map((r) => r.path)).toEqual(['/v1/responses']);
  });

  it('when streamText is called, then the text arrives in pieces and the usage at the end', async () => {
    const result = streamText({ model: modelOf(model), prompt: 'hello there' });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(`${vendorOf(model)} says: hello there`);
    expect((await result.usage).totalTokens).toBe(model.startsWith('gpt') ? 18 : 30);
    expect(await result.finishReason).toBe('stop');
  });

  it('when a tool is given, then the call is made, its result goes back as function_call_output, and the next step runs', async () => {
    const result = await generateText({
      model: modelOf(model),
      prompt: 'weather in Paris?',
      tools: { get_weather: weather },
      stopWhen: stepCountIs(2),
    });
    expect(result.steps[0].toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { city: 'Paris' } });
    expect(result.steps[0].toolResults[0]).toMatchObject({ output: 'sunny in Paris' });
    expect(result.steps).toHaveLength(2);
    if (model.startsWith('gpt')) {
      const input = (llm.openai.requests.at(-1)!.body as { input: { type?: string; output?: string }[] }).input;
      expect(input).toContainEqual(expect.objectContaining({ type: 'function_call_output', output: 'sunny in Paris' }));
    } else {
      const messages = (llm.anthropic.requests.at(-1)!.body as { messages: { content: unknown[] }[] }).messages;
      expect(messages.at(-1)!.content).toContainEqual(
        expect.objectContaining({ type: 'tool_result', content: 'sunny in Paris' }),
      );
    }
  });

  it('when a tool is streamed, then the tool call arrives whole from its argument deltas', async () => {
    const result = streamText({ model: modelOf(model), prompt: 'weather in Paris?', tools: { get_weather: weather } });
    const calls = await result.toolCalls;
    expect(calls[0]).toMatchObject({ toolName: 'get_weather', input: { city: 'Paris' } });
    expect(await result.finishReason).toBe('tool-calls');
  });
});
