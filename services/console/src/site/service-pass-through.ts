import type { Request, RequestHandler } from 'express';
import { Readable } from 'node:stream';
import { errors } from '@platform/tenancy';
import { accessOf, auditContextOf, memberOf } from '../access/access.middleware';
import type { PassThroughService } from '../config';
import * as memberTokens from '../member-tokens/member-tokens.service';

/** Request headers passed on to a service (the credentials are the member token's alone). */
const FORWARDED_REQUEST = ['accept', 'content-type', 'idempotency-key', 'last-event-id', 'user-agent', 'if-match'];
/** Answer headers passed back to the page. */
const FORWARDED_ANSWER = [
  'content-type',
  'content-disposition',
  'cache-control',
  'x-request-id',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'etag',
];
const REISSUE_WHEN_LEFT_MS = 60_000;

interface CachedToken {
  token: string;
  expiresAtMs: number;
}

/**
 * The web console's way into the six services: `/api/projects/:orgId/:projectId/:service/v1/...`
 * goes to that service with a member token of the signed-in member for that project (the
 * services' own checks and the member's role decide, exactly as for a builder's script holding
 * such a token). Tokens are reused until a minute before they expire.
 */
export function servicePassThrough(
  deps: memberTokens.MemberTokenDeps,
  serviceUrls: Record<PassThroughService, string>,
): RequestHandler<{ orgId: string; projectId: string; service: string; rest: string[] }> {
  const cache = new Map<string, CachedToken>();

  async function tokenFor(req: Request<{ orgId: string; projectId: string }>): Promise<string> {
    const member = memberOf(req);
    const access = accessOf(req);
    const key = `${member.userId}:${access.tenantId}:${req.params.projectId}:${access.role}`;
    const cached = cache.get(key);
    if (cached && cached.expiresAtMs - Date.now() > REISSUE_WHEN_LEFT_MS) return cached.token;
    const issued = await memberTokens.issueMemberToken(deps, auditContextOf(req), member, access, req.params.projectId);
    if (cache.size > 10_000) cache.clear();
    cache.set(key, { token: issued.token, expiresAtMs: Date.parse(issued.expiresAt) });
    return issued.token;
  }

  return async (req, res) => {
    const service = req.params.service as PassThroughService;
    const base = serviceUrls[service];
    if (!base) throw errors.notFound('Service');
    const token = await tokenFor(req);
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    for (const name of FORWARDED_REQUEST) {
      const value = req.get(name);
      if (value) headers[name] = value;
    }
    if (req.ip) headers['x-forwarded-for'] = req.ip;
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const hasBody = !['GET', 'HEAD'].includes(req.method);
    let answer: Response;
    try {
      answer = await fetch(`${base}/${req.params.rest.map(encodeURIComponent).join('/')}${query}`, {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
        duplex: hasBody ? 'half' : undefined,
        signal: abort.signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (abort.signal.aborted) return;
      throw errors.vendorUnreachable(`The ${service} service cannot be reached`, error);
    }
    res.status(answer.status);
    for (const name of FORWARDED_ANSWER) {
      const value = answer.headers.get(name);
      if (value) res.setHeader(name, value);
    }
    if (!answer.body) {
      res.end();
      return;
    }
    res.flushHeaders();
    Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream)
      .on('error', () => res.destroy())
      .pipe(res);
  };
}
