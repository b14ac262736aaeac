import type { Knex } from 'knex';
import type { McpAuditSink, McpCall } from '@platform/mcp';
import { record } from '../audit/audit.service';

/** Who acted through MCP: the member, or the project key (its public half) for the project's own credential. */
function actorOf(call: McpCall): { actorId: string; actorEmail: string | null } {
  const { caller } = call;
  return caller.kind === 'member'
    ? { actorId: caller.memberId, actorEmail: caller.email }
    : { actorId: `key:${caller.apiKey}`, actorEmail: null };
}

/** Every tool call made through MCP, in the project's audit log (source `mcp`, details `via: MCP`). */
export function mcpAuditLog(db: Knex): McpAuditSink {
  return {
    record: (call) =>
      record(
        db,
        { ...actorOf(call), clientAddress: call.clientAddress, userAgent: call.userAgent, source: 'mcp' },
        {
          tenantId: call.caller.tenantId,
          projectId: call.caller.projectId,
          action: 'mcp.tool-call',
          target: call.tool,
          outcome: call.outcome,
          details: {
            via: 'MCP',
            tool: call.tool,
            ...(call.caller.kind === 'member' ? { role: call.caller.role } : {}),
            ...(call.service ? { service: call.service, method: call.method, route: call.route } : {}),
            ...(call.status !== undefined ? { status: call.status } : {}),
          },
        },
      ),
  };
}
