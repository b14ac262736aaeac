import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { bearerTokenOf } from './bearer';
import { errors } from './errors';
import type { KeyDirectory } from './key-directory';
import { byIp } from './rate-limit';

/** Member tokens (docs/control-plane-contract.md): the console signs them, the six services accept them. */
export const MEMBER_TOKEN_ISSUER = 'platform-console';
export const MEMBER_TOKEN_AUDIENCE = 'platform-services';
export const MEMBER_TOKEN_MAX_TTL_SECONDS = 5 * 60;
export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What a member token says: a console member acting in one project with one role. */
export interface MemberClaims {
  memberId: string;
  email: string;
  tenantId: string;
  projectId: string;
  role: MemberRole;
}

/** A write a member made with a member token (`platform.member.action`'s data, less the time). */
export interface MemberAction {
  tenantId: string;
  projectId: string;
  memberId: string;
  memberEmail: string;
  role: MemberRole;
  service: string;
  method: string;
  route: string;
  status: number;
  clientAddress: string;
  userAgent: string;
}

/** Where a service sends its members' writes (the outbox, as `platform.member.action`). */
export interface MemberActionSink {
  record(action: MemberAction): void;
}

interface RawMemberClaims {
  sub?: unknown;
  email?: unknown;
  tid?: unknown;
  pid?: unknown;
  role?: unknown;
  typ?: unknown;
  iat?: unknown;
  exp?: unknown;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const READS = new Set(['GET', 'HEAD']);

/** Verifies a member token with the platform's public key; null when it is not a valid one. */
export function verifyMemberToken(token: string, publicKey: string | KeyObject): MemberClaims | null {
  try {
    const claims = jwt.verify(token, publicKey, {
      algorithms: ['RS256'],
      issuer: MEMBER_TOKEN_ISSUER,
      audience: MEMBER_TOKEN_AUDIENCE,
    }) as RawMemberClaims;
    const { sub, email, tid, pid, role, typ, iat, exp } = claims;
    if (typ !== 'member' || !isText(sub) || !isText(tid) || !isText(pid) || typeof email !== 'string') return null;
    if (!MEMBER_ROLES.includes(role as MemberRole)) return null;
    // A token that lives longer than the contract allows is refused, whoever signed it.
    if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > MEMBER_TOKEN_MAX_TTL_SECONDS) return null;
    return { memberId: sub, email, tenantId: tid, projectId: pid, role: role as MemberRole };
  } catch {
    return null;
  }
}

/** Signs a member token (the console holds the private key; tests sign their own). */
export function signMemberToken(
  claims: MemberClaims,
  privateKey: string | KeyObject,
  ttlSeconds = MEMBER_TOKEN_MAX_TTL_SECONDS,
): string {
  return jwt.sign(
    { email: claims.email, tid: claims.tenantId, pid: claims.projectId, role: claims.role, typ: 'member' },
    privateKey,
    {
      algorithm: 'RS256',
      expiresIn: ttlSeconds,
      subject: claims.memberId,
      issuer: MEMBER_TOKEN_ISSUER,
      audience: MEMBER_TOKEN_AUDIENCE,
    },
  );
}

export interface MemberTokenDeps {
  service: string;
  directory: KeyDirectory;
  jwt?: { publicKey: string };
  memberActions?: MemberActionSink;
}

const tokenRefused = () => errors.unauthorized('Missing, invalid or expired member token');

/** The route pattern of the matched route: read while the route runs, since Express resets `baseUrl` after. */
function routeOf(req: Request): string {
  const path = req.route?.path;
  return path === undefined ? 'unmatched' : `${req.baseUrl}${String(path)}`;
}

/**
 * Wraps the key check: a request without `x-api-key` that carries `Authorization: Bearer
 * <member token>` is let in as the token's project (its tenant and project headers, when sent,
 * must match), a viewer only to read. Every write made so is handed to `memberActions` once
 * the response is sent. Anything else goes to the key check unchanged.
 */
export function acceptMemberTokens(deps: MemberTokenDeps, keys: RequestHandler): RequestHandler {
  const publicKey = deps.jwt ? createPublicKey(deps.jwt.publicKey) : undefined;
  return (req, res, next) => {
    const token = req.headers['x-api-key'] === undefined ? bearerTokenOf(req.get('authorization')) : undefined;
    if (!token || !publicKey) return keys(req, res, next);
    const claims = verifyMemberToken(token, publicKey);
    const { headers } = req;
    if (
      !claims ||
      (headers['x-tenant-id'] !== undefined && headers['x-tenant-id'] !== claims.tenantId) ||
      (headers['x-project-id'] !== undefined && headers['x-project-id'] !== claims.projectId)
    ) {
      deps.directory.failedChecks.record(byIp(req));
      throw tokenRefused();
    }
    const write = !READS.has(req.method);
    if (write && deps.memberActions) {
      const sink = deps.memberActions;
      const route = routeOf(req);
      res.once('finish', () =>
        sink.record({
          tenantId: claims.tenantId,
          projectId: claims.projectId,
          memberId: claims.memberId,
          memberEmail: claims.email,
          role: claims.role,
          service: deps.service,
          method: req.method,
          route,
          status: res.statusCode,
          clientAddress: req.ip ?? '',
          userAgent: req.get('user-agent') ?? '',
        }),
      );
    }
    if (write && claims.role === 'viewer') throw errors.forbidden('A viewer may only read');
    return deps.directory.findProject(claims.tenantId, claims.projectId).then((project) => {
      if (!project) throw tokenRefused();
      // The same answer a suspended organisation's keys get (keys.ts).
      if (project.suspended) throw errors.forbidden('Organisation suspended');
      req.tenant = Object.freeze({
        tenantId: project.tenantId,
        projectId: project.projectId,
        settings: project.settings,
      });
      next();
    });
  };
}
