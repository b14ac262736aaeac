import type { Knex } from 'knex';
import { mcpHandlers, publishedDocuments, type McpHandlerOptions } from '@platform/mcp';
import type { KeyDirectory } from '@platform/tenancy';
import { allows, type Permission } from '../access/roles';
import type { ConsoleConfig } from '../config';
import { openapi } from '../openapi';
import { mcpAuditLog } from './mcp.audit';

export interface McpDeps {
  db: Knex;
  directory: KeyDirectory;
  jwtPublicKey: string;
  config: ConsoleConfig;
}

/** The permission each console tool needs (the route's own, routes.ts); a console tool not named here is not offered. */
const CONSOLE_TOOL_PERMISSIONS: Record<string, Permission> = {
  getMe: 'member-token.issue',
  getOrganisation: 'organisation.read',
  listMembers: 'members.read',
  listInvitations: 'invitations.manage',
  listProjects: 'projects.read',
  getProject: 'projects.read',
  renameProject: 'projects.manage',
  deleteProject: 'projects.manage',
  listKeys: 'keys.read',
  revokeKey: 'keys.manage',
  getSettings: 'settings.read',
  updateSettings: 'settings.write',
  listAuditEntries: 'audit.read',
};

/** A member sees the console tools their role allows, as the console's routes would answer them. */
const mayUse: NonNullable<McpHandlerOptions['mayUse']> = (caller, tool) => {
  if (tool.service !== 'console') return true;
  const permission = CONSOLE_TOOL_PERMISSIONS[tool.operationId];
  return caller.kind === 'member' && permission !== undefined && allows(caller.role, permission);
};

/**
 * The MCP endpoint (docs/mcp.md): tools generated from the services' published documents, each
 * call made to a service's public API with the caller's own credential and audited here.
 */
export function mcpEndpoint(deps: McpDeps) {
  const urls = { ...deps.config.serviceUrls, console: deps.config.selfUrl };
  return mcpHandlers({
    directory: deps.directory,
    jwtPublicKey: deps.jwtPublicKey,
    consoleUrl: urls.console,
    urls,
    documents: publishedDocuments(urls, { console: openapi }),
    audit: mcpAuditLog(deps.db),
    mayUse,
  });
}
