import type { Knex } from 'knex';
import { mcpHandlers, publishedDocuments } from '@platform/mcp';
import type { KeyDirectory } from '@platform/tenancy';
import type { ConsoleConfig } from '../config';
import { openapi } from '../openapi';
import { mcpAuditLog } from './mcp.audit';

export interface McpDeps {
  db: Knex;
  directory: KeyDirectory;
  jwtPublicKey: string;
  config: ConsoleConfig;
}

/**
 * The MCP endpoint (docs/mcp.md): tools generated from the services' published documents, each
 * call made to a service's public API with the caller's own credential and audited here.
 */
export function mcpEndpoint(deps: McpDeps) {
  const urls = deps.config.serviceUrls;
  return mcpHandlers({
    directory: deps.directory,
    jwtPublicKey: deps.jwtPublicKey,
    consoleUrl: urls.console,
    urls,
    documents: publishedDocuments(urls, { console: openapi }),
    audit: mcpAuditLog(deps.db),
  });
}
