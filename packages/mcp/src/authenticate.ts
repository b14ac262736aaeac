import { createHash } from 'node:crypto';
import {
  AppError,
  constantTimeEqual,
  errors,
  LOOKUPS_BUSY,
  sha256Hex,
  verifyMemberToken,
  type KeyDirectory,
} from '@platform/tenancy';
import type { Caller, MemberCaller } from './caller';
import { MCP_USER_AGENT } from './invoke';

/** The project a connection asks for: the `x-project-id` / `x-organisation-id` headers or `?project=` / `?organisation=`. */
export interface ProjectChoice {
  organisationId?: string;
  projectId?: string;
}

export interface AuthenticateDeps {
  directory: KeyDirectory;
  /** The platform's access-token public key (member tokens are signed with its private half). */
  jwtPublicKey: string;
  /** The console's public API (`/v1` included): console sessions get their member token there. */
  consoleUrl: string;
  fetch?: typeof fetch;
}

const SINGLE_CREDENTIAL = /^Bearer\s+(pk_[A-Za-z0-9_-]{1,500})\.(sk_[A-Za-z0-9_-]{1,500})$/;
const BEARER = /^Bearer\s+([A-Za-z0-9_-]{1,4000}\.[A-Za-z0-9_-]{1,4000}\.[A-Za-z0-9_-]{1,4000})$/;
// The challenge MCP clients expect with a 401 (no OAuth here: a key pair or a token is the credential).
const refused = () =>
  new AppError('UNAUTHORIZED', 'Missing or invalid credential for MCP', {
    headers: { 'WWW-Authenticate': 'Bearer realm="platform-mcp"' },
  });

async function projectCaller(
  deps: AuthenticateDeps,
  apiKey: string,
  secretKey: string,
  choice: ProjectChoice,
): Promise<Caller> {
  const record = deps.directory.cachedKey(apiKey) ?? (await deps.directory.findKey(apiKey));
  if (record === LOOKUPS_BUSY) throw errors.rateLimited('Too many key checks at the moment; try again', 1);
  if (!record || !constantTimeEqual(sha256Hex(secretKey), record.secretHash)) throw refused();
  if (record.suspended) throw errors.forbidden('Organisation suspended');
  if (choice.projectId && choice.projectId !== record.projectId)
    throw errors.forbidden('The credential is of another project');
  if (choice.organisationId && choice.organisationId !== record.tenantId)
    throw errors.forbidden('The credential is of another organisation');
  return {
    kind: 'project',
    tenantId: record.tenantId,
    projectId: record.projectId,
    apiKey,
    keyHeaders: {
      'x-api-key': apiKey,
      'x-secret-key': secretKey,
      'x-tenant-id': record.tenantId,
      'x-project-id': record.projectId,
    },
  };
}

interface IssuedToken {
  caller: MemberCaller;
  expiresAt: number;
}

/**
 * Member tokens obtained for console sessions, by session and project: a connection makes one
 * HTTP request per MCP message, and each would otherwise ask the console for a new token.
 */
export class MemberTokenCache {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly maxEntries = 10_000) {}

  get(key: string): MemberCaller | undefined {
    const entry = this.tokens.get(key);
    if (entry && entry.expiresAt > Date.now()) return entry.caller;
    this.tokens.delete(key);
    return undefined;
  }

  set(key: string, caller: MemberCaller, expiresAt: number): void {
    if (this.tokens.size >= this.maxEntries) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(key, { caller, expiresAt });
  }
}

/** A console session acting in the chosen project: the console issues the member token (and checks membership and role). */
async function consoleMember(
  deps: AuthenticateDeps,
  cache: MemberTokenCache,
  consoleToken: string,
  choice: ProjectChoice,
): Promise<Caller> {
  if (!choice.organisationId || !choice.projectId)
    throw errors.validation(
      'Choose the project: the x-organisation-id and x-project-id headers (or ?organisation= and ?project=)',
      [{ path: 'project', message: 'required with a console session' }],
    );
  const key = createHash('sha256')
    .update(`${consoleToken}\n${choice.organisationId}\n${choice.projectId}`)
    .digest('hex');
  const cached = cache.get(key);
  if (cached) return cached;
  const url = `${deps.consoleUrl}/organisations/${encodeURIComponent(choice.organisationId)}/projects/${encodeURIComponent(choice.projectId)}/member-token`;
  const response = await (deps.fetch ?? fetch)(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${consoleToken}`, 'user-agent': MCP_USER_AGENT },
  });
  if (response.status === 401) throw refused();
  if (response.status === 403 || response.status === 404)
    throw errors.forbidden('Not a member of that organisation, or no such project');
  if (!response.ok) throw errors.unavailable(`The console answered ${response.status} for a member token`);
  const issued = (await response.json()) as { token: string; expiresAt: string };
  const claims = verifyMemberToken(issued.token, deps.jwtPublicKey);
  if (!claims) throw errors.unavailable('The console issued a member token this server cannot verify');
  const caller: MemberCaller = {
    kind: 'member',
    tenantId: claims.tenantId,
    projectId: claims.projectId,
    memberId: claims.memberId,
    email: claims.email,
    role: claims.role,
    memberToken: issued.token,
    consoleToken,
  };
  // Renewed well before it expires, so no tool call carries a token about to lapse.
  cache.set(key, caller, Date.parse(issued.expiresAt) - 60_000);
  return caller;
}

/**
 * Who calls: the project's single credential (`Bearer <public>.<secret>`), a member token, or
 * a console member's session with the project chosen by header or query parameter.
 */
export async function authenticate(
  deps: AuthenticateDeps,
  cache: MemberTokenCache,
  authorization: string | undefined,
  choice: ProjectChoice,
): Promise<Caller> {
  const single = SINGLE_CREDENTIAL.exec(authorization ?? '');
  if (single) return projectCaller(deps, single[1], single[2], choice);
  const token = BEARER.exec(authorization ?? '')?.[1];
  if (!token) throw refused();
  const claims = verifyMemberToken(token, deps.jwtPublicKey);
  if (claims) {
    if (
      (choice.projectId && choice.projectId !== claims.projectId) ||
      (choice.organisationId && choice.organisationId !== claims.tenantId)
    )
      throw errors.forbidden('The member token is of another project');
    return { kind: 'member', ...claims, memberToken: token };
  }
  return consoleMember(deps, cache, token, choice);
}
