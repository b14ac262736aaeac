export { DECISIONS, type Decision } from './decisions';
export {
  buildCatalog,
  undecidedOperations,
  operationsOf,
  SERVICES,
  type OperationTool,
  type ServiceName,
} from './catalog';
export { createMcpServer, visibleTools, type McpServerOptions } from './server';
export { mcpHandlers, isReadOnly, type McpHandlerOptions } from './http';
export { authenticate, MemberTokenCache, type AuthenticateDeps, type ProjectChoice } from './authenticate';
export { publishedDocuments } from './documents';
export { MCP_USER_AGENT, type ServiceUrls } from './invoke';
export { withoutSecrets } from './redact';
export type { Caller, MemberCaller, ProjectCaller } from './caller';
export type { McpAuditSink, McpCall } from './audit';
