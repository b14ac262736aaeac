import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Span } from '@opentelemetry/api';

/** What Express and the key middleware leave on a request (read without importing either). */
interface RoutedRequest extends IncomingMessage {
  route?: { path?: unknown };
  originalUrl?: string;
  tenant?: { tenantId?: string; projectId?: string };
}

/**
 * Names an incoming request's span by its route template (`POST /v1/register`, never the raw
 * path with ids) and adds the tenant and project the key middleware found. Nothing else from
 * the request: no key, token, address or body ever reaches an attribute.
 */
export function nameServerSpan(span: Span, incoming: IncomingMessage, _res: ServerResponse): void {
  const req = incoming as RoutedRequest;
  const template = req.route?.path;
  if (typeof template === 'string') {
    // Every service route is mounted under /v1; Express has reset baseUrl by the time the response ends.
    const route = `${req.originalUrl?.startsWith('/v1/') ? '/v1' : ''}${template}`;
    span.updateName(`${req.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  if (req.tenant?.tenantId) span.setAttribute('platform.tenant.id', req.tenant.tenantId);
  if (req.tenant?.projectId) span.setAttribute('platform.project.id', req.tenant.projectId);
}
