import type { RequestHandler } from 'express';
import { errors, findString } from '@platform/tenancy';

const hasNul = (text: string) => text.includes('\u0000');

/**
 * Postgres stores no NUL character in text or jsonb; input carrying one is refused here
 * as a 400 instead of failing in the database as a 500.
 */
export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  const path = findString(req.query, hasNul) ?? findString(req.body, hasNul);
  if (path !== undefined)
    throw errors.validation('Input must not contain NUL (\\u0000) characters', [
      { path, message: 'contains a NUL character' },
    ]);
  next();
};
