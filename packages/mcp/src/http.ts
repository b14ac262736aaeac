import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppError, byIp } from '@platform/tenancy';
import type { McpAuditSink } from './audit';
import { authenticate, MemberTokenCache, type AuthenticateDeps, type ProjectChoice } from './authenticate';
import { buildCatalog, type OperationTool, type ServiceName } from './catalog';
import type { ServiceUrls } from './invoke';
import { createMcpServer, type McpServerOptions } from './server';

export interface McpHandlerOptions extends AuthenticateDeps {
  urls: ServiceUrls;
  documents: () => Promise<Record<string, object>>;
  audit: McpAuditSink;
  /** Further limits on the tools a caller may use (the console's role table for its own tools). */
  mayUse?: McpServerOptions['mayUse'];
}

const header = (req: Request, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};
const query = (req: Request, name: string) => {
  const value = req.query[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};
const YES = new Set(['1', 'true', 'yes', 'on']);

/** `?readonly=1` or `x-mcp-readonly: 1`: only the reading tools are listed and callable. */
export function isReadOnly(req: Request): boolean {
  const asked = query(req, 'readonly') ?? header(req, 'x-mcp-readonly');
  return asked !== undefined && YES.has(asked.toLowerCase());
}

function projectChoice(req: Request): ProjectChoice {
  return {
    organisationId: header(req, 'x-organisation-id') ?? header(req, 'x-tenant-id') ?? query(req, 'organisation'),
    projectId: header(req, 'x-project-id') ?? query(req, 'project'),
  };
}

/**
 * The Streamable HTTP endpoint (stateless: every POST carries the credential and is answered
 * by a server made for that caller). GET and DELETE have nothing to serve without sessions.
 */
export function mcpHandlers(options: McpHandlerOptions): { post: RequestHandler; notAllowed: RequestHandler } {
  const cache = new MemberTokenCache();
  // Rebuilt only when the documents changed (a service answered for the first time, or was redeployed).
  let catalog: { documents: Record<string, object>; tools: OperationTool[] } | undefined;
  const toolsOf = (documents: Record<string, object>) => {
    if (catalog?.documents !== documents)
      catalog = { documents, tools: buildCatalog(documents as Partial<Record<ServiceName, object>>) };
    return catalog.tools;
  };

  const post: RequestHandler = async (req, res) => {
    let caller;
    try {
      caller = await authenticate(options, cache, req.headers.authorization, projectChoice(req));
    } catch (error) {
      if (error instanceof AppError && error.status === 401) options.directory.failedChecks.record(byIp(req));
      throw error;
    }
    const documents = await options.documents();
    const server = createMcpServer({
      caller,
      catalog: toolsOf(documents),
      documents,
      urls: options.urls,
      audit: options.audit,
      readOnly: isReadOnly(req),
      mayUse: options.mayUse,
      clientAddress: req.ip ?? '',
      userAgent: req.get('user-agent') ?? '',
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // Express's request is Node's IncomingMessage; the SDK types name its own copy of @types/node.
    await transport.handleRequest(req as unknown as IncomingMessage, res as unknown as ServerResponse, req.body);
  };

  const notAllowed: RequestHandler = (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'This MCP endpoint is stateless: POST only' },
        id: null,
      });
  };
  return { post, notAllowed };
}
