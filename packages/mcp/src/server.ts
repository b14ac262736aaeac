import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { outcomeOf, type McpAuditSink } from './audit';
import { readsOnly, type Caller } from './caller';
import type { OperationTool } from './catalog';
import { describeProject } from './describe-project';
import { invoke, type ServiceUrls } from './invoke';
import { PROMPTS } from './prompts';
import { resourcesOf } from './resources';
import { inputProblems } from './tool-input';

export interface McpServerOptions {
  caller: Caller;
  /** The tools of the contracts (`buildCatalog`). */
  catalog: OperationTool[];
  documents: Record<string, object>;
  urls: ServiceUrls;
  audit: McpAuditSink;
  /** The connection asked for read-only tools. */
  readOnly: boolean;
  /** What the mounting service adds to the checks (the console: its role table for its own tools). */
  mayUse?: (caller: Caller, tool: OperationTool) => boolean;
  clientAddress: string;
  userAgent: string;
}

const DESCRIBE_PROJECT: Tool = {
  name: 'describe_project',
  description:
    'Describe this project in one step: its organisation and id, and per service what it holds (users, content types and items, webhooks, e-mail providers, templates and delivery counts, LLM providers and limits, notifications, billing configuration), with the project settings for console members.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { title: 'Describe this project', readOnlyHint: true, openWorldHint: false },
};

const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

/** The tools this caller may see on this connection. */
export function visibleTools(
  catalog: OperationTool[],
  caller: Caller,
  readOnly: boolean,
  mayUse: (caller: Caller, tool: OperationTool) => boolean = () => true,
): OperationTool[] {
  const reading = readsOnly(caller, readOnly);
  return catalog.filter(
    (tool) =>
      (!reading || tool.readOnly) &&
      // The console's operations need a console member's session.
      (tool.service !== 'console' || (caller.kind === 'member' && caller.consoleToken !== undefined)) &&
      mayUse(caller, tool),
  );
}

/**
 * One MCP server for one caller on one connection: the tools they may use, each call made
 * with their own credential and recorded in the project's audit log.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { caller, audit } = options;
  const server = new Server(
    { name: 'platform', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        'Tools of one project of the open backend platform, generated from the services\u2019 OpenAPI documents. Start with describe_project. Tools marked destructive delete data or send to real addresses: ask the user first.',
    },
  );
  const visible = visibleTools(options.catalog, caller, options.readOnly, options.mayUse);
  const byName = new Map(visible.map((tool) => [tool.name, tool]));
  const allByName = new Map(options.catalog.map((tool) => [tool.name, tool]));
  const resources = resourcesOf(options.documents);
  const record = (entry: Omit<Parameters<McpAuditSink['record']>[0], 'caller' | 'clientAddress' | 'userAgent'>) =>
    audit.record({ ...entry, caller, clientAddress: options.clientAddress, userAgent: options.userAgent });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      DESCRIBE_PROJECT,
      ...visible.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as Tool['inputSchema'],
        annotations: tool.annotations,
      })),
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (name === DESCRIBE_PROJECT.name) {
      const description = await describeProject(caller, byName, options.urls);
      await record({ tool: name, outcome: 'success' });
      return text(description);
    }
    const tool = byName.get(name);
    if (!tool) {
      const hidden = allByName.get(name);
      if (hidden) {
        await record({ tool: name, service: hidden.service, method: hidden.method.toUpperCase(), outcome: 'denied' });
        return text(
          `Refused: ${name} is not open to this connection (read-only mode, or the member's role does not allow it).`,
          true,
        );
      }
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    const problems = inputProblems(tool.inputSchema, args);
    if (problems.length > 0) return text(`Invalid input for ${name}: ${problems.join('; ')}`, true);
    const base = { tool: name, service: tool.service, method: tool.method.toUpperCase(), route: tool.path };
    try {
      const answer = await invoke(tool, args, caller, options.urls);
      await record({ ...base, status: answer.status, outcome: outcomeOf(answer.status) });
      return text({ status: answer.status, body: answer.body }, answer.status >= 400);
    } catch (error) {
      await record({ ...base, outcome: 'failure' });
      return text(`${tool.service} could not be reached: ${error instanceof Error ? error.message : error}`, true);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: resources.map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = resources.find((r) => r.uri === request.params.uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: resource.text() }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: PROMPTS.map(({ name, description, arguments: args }) => ({ name, description, arguments: args })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    return {
      description: prompt.description,
      messages: [
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: prompt.text(request.params.arguments ?? {}) },
        },
      ],
    };
  });
  return server;
}
