import type { RequestHandler } from 'express';

declare module 'node:http' {
  interface IncomingMessage {
    /** The service that answered (several share one process under `pnpm start`), for its trace span. */
    platformService?: string;
  }
}

/**
 * Marks which service a request reached; the telemetry package names the request's span by its
 * route and adds this, the tenant and the project when the response ends. Installed only while
 * tracing is on.
 */
export function tagServerSpans(service: string): RequestHandler {
  return (req, _res, next) => {
    req.platformService = service;
    next();
  };
}
