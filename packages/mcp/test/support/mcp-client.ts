import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Every text a tool answered in this test file: scanned for secrets at the end. */
export const answered: string[] = [];

/** The official SDK client over Streamable HTTP, with the headers (credential, project choice) given. */
export async function connectHttp(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'platform-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** Calls a tool and returns its answer parsed (`{status, body}` for operation tools), keeping its text. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read into answers
): Promise<{ isError: boolean; text: string; json: any }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  answered.push(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, text, json };
}
