import type { RequestHandler } from 'express';

/**
 * Runs several middlewares as one router layer. Express matches every layer against the path
 * on every request; per-request basics that need no path can share one layer.
 */
export function inOneLayer(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      // Errors (sync, or a rejected promise) go to Express like from any middleware; only a
      // handler that returned a promise gets a rejection handler (no promise per step otherwise).
      const result: unknown = handler(req, res, step);
      if (result instanceof Promise) result.catch(next);
    };
    step();
  };
}
