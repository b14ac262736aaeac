import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioBridgeOptions {
  /** The platform's MCP endpoint, e.g. http://localhost:4000/v1/mcp. */
  url: string;
  /** The credential: `pk_….sk_…` (the project's), a member token or a console session token. */
  credential: string;
  organisationId?: string;
  projectId?: string;
  readOnly?: boolean;
}

/**
 * For desktop clients that start a local process: MCP over stdin/stdout, each message passed to
 * the platform's Streamable HTTP endpoint with the credential, so the tools, the checks and the
 * audit log are the endpoint's own.
 */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const url = new URL(options.url);
  if (options.readOnly) url.searchParams.set('readonly', '1');
  const headers: Record<string, string> = { authorization: `Bearer ${options.credential}` };
  if (options.organisationId) headers['x-organisation-id'] = options.organisationId;
  if (options.projectId) headers['x-project-id'] = options.projectId;
  const upstream = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const local = new StdioServerTransport();

  const failed = (message: JSONRPCMessage, error: unknown) => {
    if (!('id' in message) || !('method' in message)) return;
    const text = error instanceof Error ? error.message : String(error);
    void local.send({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32000, message: `Platform MCP endpoint: ${text}` },
    });
  };
  local.onmessage = (message) => void upstream.send(message).catch((error: unknown) => failed(message, error));
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (error) => process.stderr.write(`platform MCP endpoint: ${error.message}\n`);
  local.onclose = () => void upstream.close();
  await upstream.start();
  await local.start();
}
