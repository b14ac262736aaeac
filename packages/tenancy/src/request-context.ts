import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The id of the request being served, for log lines written anywhere below a handler. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes X-Request-Id from the caller when it is sane, else makes one; echoes it on the response. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    req.requestId = id;
    res.setHeader('X-Request-Id', id);
    storage.run({ requestId: id }, next);
  };
}
