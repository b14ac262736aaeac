import type { RequestHandler } from 'express';
import { errors } from '@platform/tenancy';

const MAX_DEPTH = 64;

function pathOfNul(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return childPath;
    const found = pathOfNul(inner, childPath, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Postgres stores no NUL character in text or jsonb; input carrying one is refused here
 * as a 400 instead of failing in the database as a 500.
 */
export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  const path = pathOfNul(req.query, '') ?? pathOfNul(req.body, '');
  if (path)
    throw errors.validation('Input must not contain NUL (\\u0000) characters', [
      { path, message: 'contains a NUL character' },
    ]);
  next();
};
