import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { isHeadersOnly, readsOwnBody } from '@platform/tenancy';

interface Layer {
  handle: RequestHandler & { stack?: Layer[] };
  route?: { stack: Layer[] };
}

const BODY_READ = Symbol('bodyRead');
type Tracked = Request & { [BODY_READ]?: true };

/** `handler` once `readBody` has read the request's body (once per request, whichever handler comes first). */
function afterBody(readBody: RequestHandler, handler: RequestHandler): RequestHandler {
  return (req: Tracked, res: Response, next: NextFunction) => {
    if (req[BODY_READ]) return handler(req, res, next);
    req[BODY_READ] = true;
    return readBody(req, res, (error?: unknown) => {
      if (error) return next(error);
      try {
        const result = handler(req, res, next) as unknown;
        if (result instanceof Promise)
          result.catch((rejection: unknown) => next(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    });
  };
}

const isErrorHandler = (layer: Layer) => layer.handle.length > 3;

function placeInRoute(stack: Layer[], readBody: RequestHandler): void {
  if (stack.some((layer) => readsOwnBody(layer.handle))) return;
  const first = stack.find((layer) => !isErrorHandler(layer) && !isHeadersOnly(layer.handle));
  if (first) first.handle = afterBody(readBody, first.handle);
}

/**
 * Puts the reading of each route's body after the route's headers-only middleware (`headersOnly`:
 * the credential checks and the limits that need no body), right before the first handler that
 * may look at the body. A request refused on its headers, or matching no route, is never read.
 * Routes with their own reader (`ownBodyReader`) are left as they are.
 */
export function readBodiesAfterCredentials(
  router: Router,
  readBody: RequestHandler,
  seen = new WeakSet<object>(),
): void {
  // A router mounted at two paths is one stack: placed once.
  if (seen.has(router)) return;
  seen.add(router);
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (layer.route) placeInRoute(layer.route.stack, readBody);
    else if (Array.isArray(layer.handle.stack)) {
      readBodiesAfterCredentials(layer.handle as unknown as Router, readBody, seen);
    } else if (!isErrorHandler(layer) && !isHeadersOnly(layer.handle) && !readsOwnBody(layer.handle)) {
      layer.handle = afterBody(readBody, layer.handle);
    }
  }
}
