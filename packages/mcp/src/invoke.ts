import type { Caller } from './caller';
import { CONNECTION_PARAMETERS, type OperationTool } from './catalog';
import { credentialHeaders } from './caller';
import { withoutSecrets } from './redact';

/** Where each service's public API is (`/v1` included). */
export type ServiceUrls = Record<string, string>;

/** What a service answered to one tool call. */
export interface ServiceAnswer {
  status: number;
  body: unknown;
}

/** The user agent of every request the MCP server makes, so the services' logs tell them apart. */
export const MCP_USER_AGENT = 'platform-mcp/1 (via MCP)';

function pathOf(tool: OperationTool, args: Record<string, unknown>, caller: Caller): string {
  return tool.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const fromConnection = CONNECTION_PARAMETERS[name];
    const value = fromConnection ? caller[fromConnection] : args[name];
    return encodeURIComponent(String(value ?? ''));
  });
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Calls the operation behind `tool` on its service's public API with the caller's own
 * credential: the service checks it, applies the project's limits and budgets, and answers.
 */
export async function invoke(
  tool: OperationTool,
  args: Record<string, unknown>,
  caller: Caller,
  urls: ServiceUrls,
  fetchImpl: typeof fetch = fetch,
): Promise<ServiceAnswer> {
  const credential = credentialHeaders(caller, tool.service);
  const base = urls[tool.service];
  if (!credential || !base) return { status: 403, body: { error: `No credential for ${tool.service}` } };
  const url = new URL(`${base.replace(/\/+$/, '')}${pathOf(tool, args, caller)}`);
  const headers: Record<string, string> = { ...credential, accept: 'application/json', 'user-agent': MCP_USER_AGENT };
  for (const parameter of tool.parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null) continue;
    if (parameter.in === 'query') {
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(parameter.name, String(item));
    } else if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = String(value);
  }
  const hasBody = tool.hasBody && args.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const response = await fetchImpl(url, {
    method: tool.method.toUpperCase(),
    headers,
    body: hasBody ? JSON.stringify(args.body) : undefined,
    redirect: 'manual',
  });
  return { status: response.status, body: withoutSecrets(await bodyOf(response)) };
}
