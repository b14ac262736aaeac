import type { Caller } from './caller';

/** One call made through MCP, for the project's audit log ("via MCP"). */
export interface McpCall {
  caller: Caller;
  tool: string;
  /** The service and route the tool called; absent for composite tools and refusals before any call. */
  service?: string;
  method?: string;
  route?: string;
  status?: number;
  outcome: 'success' | 'denied' | 'failure';
  clientAddress: string;
  userAgent: string;
}

/** Where every tool call is recorded (the console writes it to its audit log). */
export interface McpAuditSink {
  record(call: McpCall): Promise<void>;
}

export const outcomeOf = (status: number): McpCall['outcome'] =>
  status === 401 || status === 403 ? 'denied' : status >= 400 ? 'failure' : 'success';
