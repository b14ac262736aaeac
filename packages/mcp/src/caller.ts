import type { MemberRole } from '@platform/tenancy';

/** Who is on the other end of an MCP connection, and the credentials their tool calls carry. */
export type Caller = ProjectCaller | MemberCaller;

/** The project's own credential (`Bearer <public>.<secret>`): sent on as the four key headers. */
export interface ProjectCaller {
  kind: 'project';
  tenantId: string;
  projectId: string;
  /** The public key: who acted, in the audit log. */
  apiKey: string;
  keyHeaders: Record<string, string>;
}

/** A console member acting in one project with their role. */
export interface MemberCaller {
  kind: 'member';
  tenantId: string;
  projectId: string;
  memberId: string;
  email: string;
  role: MemberRole;
  /** The member token the six services take (docs/control-plane-contract.md). */
  memberToken: string;
  /** The member's console session, for the console's own operations; absent when the caller brought only a member token. */
  consoleToken?: string;
}

/** What a connection may do: read-only connections and viewers get the reading tools only. */
export function readsOnly(caller: Caller, readOnlyConnection: boolean): boolean {
  return readOnlyConnection || (caller.kind === 'member' && caller.role === 'viewer');
}

/** The headers that carry the caller's credential to `service`, or undefined when it has none there. */
export function credentialHeaders(caller: Caller, service: string): Record<string, string> | undefined {
  if (service === 'console') {
    return caller.kind === 'member' && caller.consoleToken
      ? { authorization: `Bearer ${caller.consoleToken}` }
      : undefined;
  }
  return caller.kind === 'project' ? caller.keyHeaders : { authorization: `Bearer ${caller.memberToken}` };
}
