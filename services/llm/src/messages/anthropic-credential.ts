import type { RequestHandler } from 'express';
import { headersOnly, type KeyDirectory } from '@platform/tenancy';

/** Anthropic's `x-api-key` carrying our single credential `<public key>.<secret key>`. */
const IN_API_KEY = /^(pk_[A-Za-z0-9_-]{1,500})\.(sk_[A-Za-z0-9_-]{1,500})$/;

/**
 * For Anthropic's SDKs and tools, which send their one key as `x-api-key`: on /messages only,
 * that header holding the single credential (and no secret-key header beside it) becomes the four
 * key headers (the tenant and project from the key's record), for the key check that follows to
 * judge as usual. Requests with the key headers are left as they are.
 */
export function anthropicCredential(directory: KeyDirectory): RequestHandler {
  return headersOnly((req, _res, next) => {
    if (req.headers['x-secret-key'] !== undefined) return next();
    const match = IN_API_KEY.exec(String(req.headers['x-api-key'] ?? ''));
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
