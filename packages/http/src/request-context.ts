import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Takes X-Request-Id from the caller when it is sane, else makes one; echoes it on the
 * response and keeps it on `req.requestId` for every log line about the request. (Not an
 * AsyncLocalStorage: on Node 20 that slows every promise in the process.)
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    req.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
