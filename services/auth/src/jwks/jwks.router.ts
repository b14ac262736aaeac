import type { RequestHandler } from 'express';
import { jwksOf } from './jwks';

/** Public: verifiers may cache it for a few minutes. */
export function jwksHandler(publicKeyPem: string): RequestHandler {
  const body = jwksOf(publicKeyPem);
  return (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(body);
  };
}
