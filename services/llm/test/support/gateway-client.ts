import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import OpenAI from 'openai';
import { createHttpServer, type ConnectionLimits } from '@platform/http';
import type { TestProject } from '@platform/testkit';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** The app on a real port, served as the service serves it, for the OpenAI SDK to call. */
export async function listen(app: Express, limits?: Partial<ConnectionLimits>): Promise<Listening> {
  const server = createHttpServer(app, limits);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Credential = 'keys' | 'single';

/** The official OpenAI SDK pointed at the gateway, with the four key headers or the single credential. */
export function sdkFor(url: string, project: TestProject, credential: Credential = 'keys'): OpenAI {
  return credential === 'keys'
    ? new OpenAI({ baseURL: `${url}/v1`, apiKey: 'not-used', defaultHeaders: project.headers, maxRetries: 0 })
    : new OpenAI({ baseURL: `${url}/v1`, apiKey: `${project.apiKey}.${project.secretKey}`, maxRetries: 0 });
}

/** A streamed answer put together: its text, tool-call arguments, finish reason and usage chunk. */
export async function collect(stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>) {
  let text = '';
  let args = '';
  let toolName: string | undefined;
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | undefined;
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    expect(chunk.object).toBe('chat.completion.chunk');
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      text += choice.delta.content ?? '';
      for (const call of choice.delta.tool_calls ?? []) {
        toolName ??= call.function?.name;
        args += call.function?.arguments ?? '';
      }
      finish = choice.finish_reason ?? finish;
    }
  }
  return { text, args, toolName, finish, usage, chunks };
}

export const hello = [{ role: 'user' as const, content: 'hello there' }];
export const weatherTool = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
