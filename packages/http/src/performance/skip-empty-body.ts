import type { RequestHandler } from 'express';

/**
 * The body parser only for requests that announce a body: most requests (GET, DELETE) have
 * none, and skip the parser's own checks (content type, charset, length) altogether.
 */
export function onlyWithBody(parse: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    return parse(req, res, next);
  };
}
