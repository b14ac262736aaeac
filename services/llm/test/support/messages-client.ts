import Anthropic from '@anthropic-ai/sdk';
import type { TestProject } from '@platform/testkit';

export type AnthropicCredential = 'x-api-key' | 'keys';

/**
 * The official Anthropic SDK pointed at the gateway: our single credential as its API key (sent as
 * `x-api-key`, as Anthropic's tools send it), or the four key headers.
 */
export function anthropicSdkFor(
  url: string,
  project: TestProject,
  credential: AnthropicCredential = 'x-api-key',
): Anthropic {
  return credential === 'x-api-key'
    ? new Anthropic({ baseURL: url, apiKey: `${project.apiKey}.${project.secretKey}`, maxRetries: 0 })
    : new Anthropic({ baseURL: url, apiKey: 'not-used', defaultHeaders: project.headers, maxRetries: 0 });
}

export const greeting: Anthropic.MessageParam[] = [{ role: 'user', content: 'hello there' }];

export const weatherTool: Anthropic.Tool[] = [
  {
    name: 'get_weather',
    description: 'Weather in a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];

/** The events of a stream by name, and the text and tool input they carry. */
export async function collectEvents(stream: AsyncIterable<Anthropic.MessageStreamEvent>) {
  const types: string[] = [];
  let text = '';
  let json = '';
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta')
      json += event.delta.partial_json;
  }
  return { types, text, json };
}
