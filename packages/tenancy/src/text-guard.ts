import type { Request, RequestHandler } from 'express';
import { errors } from './errors';

/** A UTF-16 surrogate without its partner: no UTF-8 (so no Postgres text or jsonb) can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/**
 * The path of the first string (value or key) in `value` that `bad` matches. Iterative, so a
 * deeply nested body cannot overflow the stack.
 */
export function findString(value: unknown, bad: (text: string) => boolean): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (bad(current)) return path;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    for (const [key, inner] of Object.entries(current)) {
      const childPath = path ? `${path}.${key}` : key;
      if (bad(key)) return childPath;
      stack.push([inner, childPath]);
    }
  }
  return undefined;
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * Whether the parsed body may hold a lone surrogate. Decoded from UTF-8, it holds one only
 * through a `\u` escape: the decoder turns bytes that are not UTF-8 into U+FFFD. Another
 * charset's bytes are not searched; its body is walked.
 */
function bodyMayHoldLoneSurrogate(req: Request): boolean {
  const raw = req.rawBody;
  if (!raw) return true;
  const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') return true;
  return raw.includes('\\u');
}

/**
 * Strings with a lone surrogate (`"\ud800"` in JSON) are refused with 400 wherever they come
 * (query, body, value or key): Postgres cannot store them, and a JSON column fails on them as a 500.
 */
export const rejectLoneSurrogates: RequestHandler = (req, _res, next) => {
  const path =
    findString(req.query, hasLoneSurrogate) ??
    (bodyMayHoldLoneSurrogate(req) ? findString(req.body, hasLoneSurrogate) : undefined);
  // Passed to next(), not thrown: this runs inside the body parser's callback.
  if (path === undefined) return next();
  next(
    errors.validation('Text must be valid Unicode: a lone UTF-16 surrogate cannot be stored', [
      { path, message: 'contains a lone UTF-16 surrogate' },
    ]),
  );
};
