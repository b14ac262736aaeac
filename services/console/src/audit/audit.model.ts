/** Who acted, from where: taken from the request (or the command line), never from a body. */
export interface AuditContext {
  actorId: string | null;
  actorEmail: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  /** `console` (this API), `cli` (pnpm admin), `service` (a member's write in one of the six), `mcp` (a tool call through MCP). */
  source: 'console' | 'cli' | 'service' | 'mcp';
}

export type AuditOutcome = 'success' | 'denied' | 'failure';

/** One act to record; `details` never holds a secret. */
export interface AuditAct {
  tenantId?: string | null;
  projectId?: string | null;
  action: string;
  target?: string | null;
  outcome: AuditOutcome;
  details?: Record<string, unknown>;
}

export interface AuditFilters {
  projectId?: string;
  actor?: string;
  action?: string;
  from?: Date;
  to?: Date;
}
