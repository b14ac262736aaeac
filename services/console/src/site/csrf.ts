import type { RequestHandler } from 'express';
import { errors } from '@platform/tenancy';

/** The header every state-changing call of the web console carries (a form or another site cannot set it). */
export const CSRF_HEADER = 'x-console-request';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF check for the cookie-authenticated pass-through: a write must carry the custom header
 * (cross-site, only a CORS preflight could add it, and none is allowed) and, when the browser
 * names an Origin, come from this console's own origin.
 */
export function requireSameOrigin(consoleUrl: string): RequestHandler {
  const allowed = new URL(consoleUrl).origin;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (req.get(CSRF_HEADER) !== '1') throw errors.forbidden(`Missing the ${CSRF_HEADER} header`);
    const origin = req.get('origin');
    if (origin && origin !== allowed && origin !== `${req.protocol}://${req.get('host')}`)
      throw errors.forbidden('Cross-origin request refused');
    next();
  };
}
