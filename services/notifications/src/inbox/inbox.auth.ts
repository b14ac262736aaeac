import { createPublicKey } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { PlatformDirectory } from '@platform/directory';
import { bearerTokenOf, errors, headersOnly, verifyAccessToken } from '@platform/tenancy';

/** Methods and headers a browser may send to the end-user routes. */
const ALLOWED_METHODS = 'GET, PATCH';
const ALLOWED_HEADERS = 'authorization, content-type, last-event-id';

export interface EndUserOptions {
  publicKey: string;
  directory: PlatformDirectory;
  /** Also take the token from `?access_token=` (EventSource cannot set headers). */
  queryToken: boolean;
}

function tokenOf(header: string | undefined, query: unknown, queryToken: boolean): string | undefined {
  const fromHeader = bearerTokenOf(header);
  if (fromHeader) return fromHeader;
  const fromQuery = queryToken ? (query as { access_token?: unknown }).access_token : undefined;
  return typeof fromQuery === 'string' ? fromQuery : undefined;
}

/**
 * The end user's own access token (issued by Authentication) instead of the project's keys:
 * project and user come from the token. A browser request (one with an Origin) passes only
 * from an origin in the project's `allowedOrigins` setting, and gets the CORS headers.
 */
export function endUser(options: EndUserOptions): RequestHandler {
  const key = createPublicKey(options.publicKey);
  return headersOnly(async (req, res, next) => {
    const origin = req.get('origin');
    res.vary('origin');
    // A 401 says nothing about the project, and the app must be able to read it to refresh its token.
    const refuse = (message: string) => {
      if (origin !== undefined) res.setHeader('access-control-allow-origin', origin);
      return errors.invalidSession(message);
    };
    const token = tokenOf(req.get('authorization'), req.query, options.queryToken);
    const claims = token ? verifyAccessToken(token, key) : null;
    if (!claims) throw refuse('Missing, invalid or expired access token');
    const project = await options.directory.findProject(claims.tenantId, claims.projectId);
    if (!project) throw refuse('The project of this access token no longer exists');
    if (origin !== undefined) {
      const allowed = project.settings.allowedOrigins;
      if (!Array.isArray(allowed) || !allowed.includes(origin)) {
        throw errors.forbidden('This origin is not in the allowed origins of the project');
      }
      res.setHeader('access-control-allow-origin', origin);
    }
    req.tenant = { tenantId: project.tenantId, projectId: project.projectId, settings: project.settings };
    req.auth = claims;
    next();
  });
}

/**
 * Answers a browser's preflight. It carries no token, so it cannot name the project: it says
 * which methods and headers may follow, and the request itself is checked against the
 * project's allowed origins (a refused origin gets 403 without CORS headers).
 */
export const preflight: RequestHandler = (req, res) => {
  const origin = req.get('origin');
  if (origin !== undefined) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-allow-methods', ALLOWED_METHODS);
    res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
    res.setHeader('access-control-max-age', '600');
  }
  res.vary('origin');
  res.status(204).end();
};
