import type { RequestHandler } from 'express';
import { headersOnly, type KeyDirectory } from '@platform/tenancy';

/** `Authorization: Bearer <public key>.<secret key>`: one credential that names exactly one project. */
const SINGLE_CREDENTIAL = /^Bearer\s+(pk_[A-Za-z0-9_-]{1,500})\.(sk_[A-Za-z0-9_-]{1,500})$/;

/**
 * For tools that take a base URL and one API key: turns the single credential into the four key
 * headers (the tenant and project come from the key's record), for the key check that follows to
 * judge as usual. Requests that carry the key headers are left as they are.
 */
export function singleCredential(directory: KeyDirectory): RequestHandler {
  return headersOnly((req, _res, next) => {
    if (req.headers['x-api-key'] !== undefined) return next();
    const match = SINGLE_CREDENTIAL.exec(String(req.headers.authorization ?? ''));
    if (!match) return next();
    const [, apiKey, secretKey] = match;
    const use = (record: { tenantId: string; projectId: string } | null) => {
      req.headers['x-api-key'] = apiKey;
      req.headers['x-secret-key'] = secretKey;
      // An unknown key still goes through the key check, which answers it with the usual 401.
      req.headers['x-tenant-id'] = record?.tenantId ?? 'unknown';
      req.headers['x-project-id'] = record?.projectId ?? 'unknown';
      next();
    };
    const cached = directory.cachedKey(apiKey);
    if (cached !== undefined) return use(cached);
    // A busy directory is judged by the key check too (429), like any unknown key.
    return directory.findKey(apiKey).then((record) => use(typeof record === 'object' ? record : null));
  });
}
