import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { recordedHeaders } from './performance';

/**
 * helmet, configured for a JSON API (the OWASP REST header set): no content may load or frame,
 * no MIME sniffing, HTTPS only, no referrer, same-origin resource embedding. The headers only
 * documents use (DNS prefetch, XSS auditor, IE downloads, Flash policies, COOP, agent
 * clusters) are left off: every response is JSON, and each header is sent with every response.
 */
const helmetForApi = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xFrameOptions: { action: 'deny' },
});

/** The security headers on every response; `recorded` (the default) works helmet's out once. */
export function securityHeaders(options: { recorded?: boolean } = {}): RequestHandler {
  return options.recorded === false ? helmetForApi : recordedHeaders(helmetForApi);
}
