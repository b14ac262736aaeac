import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

type HeaderMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * The headers a middleware that sets the same headers on every response (helmet) sets,
 * worked out once and copied onto each response, instead of running it per request.
 */
export function recordedHeaders(middleware: HeaderMiddleware): RequestHandler {
  const headers: [string, string | number | readonly string[]][] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, value]);
      return this;
    },
    removeHeader() {
      return this;
    },
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
