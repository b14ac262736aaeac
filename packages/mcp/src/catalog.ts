import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { DECISIONS, type Decision } from './decisions';
import { inputSchemaOf, type JsonSchema, type OpenApiOperation, type OpenApiParameter } from './input-schema';

/** The services whose contracts the tools come from; `console` is the control plane (members only). */
export const SERVICES = ['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications', 'console'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Path parameters the connection fills in (its organisation and project), never asked of the agent. */
export const CONNECTION_PARAMETERS: Record<string, 'tenantId' | 'projectId'> = {
  orgId: 'tenantId',
  tenant_id: 'tenantId',
  projectId: 'projectId',
  project_id: 'projectId',
};

/** One operation of a contract made into a tool. */
export interface OperationTool {
  name: string;
  service: ServiceName;
  operationId: string;
  method: string;
  path: string;
  description: string;
  inputSchema: JsonSchema;
  parameters: OpenApiParameter[];
  hasBody: boolean;
  readOnly: boolean;
  destructive: boolean;
  annotations: ToolAnnotations;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface OpenApiDocument {
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], OpenApiOperation>>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Every operation of a document with its method and path. */
export function operationsOf(document: object): { method: string; path: string; operation: OpenApiOperation }[] {
  const found: { method: string; path: string; operation: OpenApiOperation }[] = [];
  for (const [path, item] of Object.entries((document as OpenApiDocument).paths ?? {}))
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) found.push({ method, path, operation });
    }
  return found;
}

/** Operations of the documents that have no line in `decisions` (as `service.operationId`). */
export function undecidedOperations(
  documents: Partial<Record<string, object>>,
  decisions: Record<string, Record<string, Decision>> = DECISIONS,
): string[] {
  const missing: string[] = [];
  for (const [service, document] of Object.entries(documents))
    for (const { method, path, operation } of operationsOf(document ?? {})) {
      const id = operation.operationId ?? `${method} ${path}`;
      if (!decisions[service]?.[id]) missing.push(`${service}.${id}`);
    }
  return missing;
}

function describe(operation: OpenApiOperation, service: string, method: string, path: string): string {
  const text = [operation.summary, operation.description].filter(Boolean).join('. ');
  return `${text || `${method.toUpperCase()} ${path}`} (${service}: ${method.toUpperCase()} ${path})`;
}

function annotationsOf(title: string, readOnly: boolean, destructive: boolean, method: string): ToolAnnotations {
  if (readOnly) return { title, readOnlyHint: true, openWorldHint: false };
  return {
    title,
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: method === 'put' || method === 'delete',
    openWorldHint: false,
  };
}

/**
 * The tools of the services' documents: each operation whose decision exposes it, named
 * `<service>_<operationId>`. Operations without a decision are not exposed (the decision test
 * catches them before they ship).
 */
export function buildCatalog(documents: Partial<Record<ServiceName, object>>): OperationTool[] {
  const tools: OperationTool[] = [];
  for (const service of SERVICES) {
    const document = documents[service] as OpenApiDocument | undefined;
    if (!document) continue;
    for (const { method, path, operation } of operationsOf(document)) {
      const decision = operation.operationId ? DECISIONS[service]?.[operation.operationId] : undefined;
      if (!decision || typeof decision === 'object') continue;
      const readOnly = decision === 'read' || method === 'get';
      const destructive = !readOnly && (decision === 'destructive' || method === 'delete');
      const parameters = (operation.parameters ?? []).filter(
        (p) => !(p.in === 'path' && CONNECTION_PARAMETERS[p.name]),
      );
      const name = `${service}_${operation.operationId}`;
      tools.push({
        name,
        service,
        operationId: operation.operationId!,
        method,
        path,
        description: describe(operation, service, method, path),
        inputSchema: inputSchemaOf(parameters, operation.requestBody, document.components?.schemas ?? {}),
        parameters,
        hasBody: Boolean(operation.requestBody),
        readOnly,
        destructive,
        annotations: annotationsOf(operation.summary ?? name, readOnly, destructive, method),
      });
    }
  }
  return tools;
}
