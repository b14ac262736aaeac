import type { RequestHandler } from 'express';

const HEADERS_ONLY = Symbol('headersOnly');
const OWN_BODY = Symbol('ownBody');

type Marked = RequestHandler & { [HEADERS_ONLY]?: true; [OWN_BODY]?: true };

/**
 * Marks a middleware that judges a request by its headers alone (credentials, per-address and
 * per-project limits): the shared stack runs it before the body is read, so a request it refuses
 * is never read or parsed.
 */
export function headersOnly<T extends RequestHandler>(handler: T): T {
  (handler as Marked)[HEADERS_ONLY] = true;
  return handler;
}

/** Marks a route's own body reader (a raw body for a signature, a tighter limit): the shared JSON reader then stays out of that route. */
export function ownBodyReader<T extends RequestHandler>(handler: T): T {
  (handler as Marked)[OWN_BODY] = true;
  return handler;
}

export const isHeadersOnly = (handler: unknown): boolean => (handler as Marked | undefined)?.[HEADERS_ONLY] === true;

export const readsOwnBody = (handler: unknown): boolean => (handler as Marked | undefined)?.[OWN_BODY] === true;
