import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { constantTimeEqual, sha256Hex } from './crypto';
import { errors } from './errors';
import type { ApiKeyRecord, PlatformDirectory } from './platform-directory';
import type { TenantContext } from './tenant-context';

const usable = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length < 512;

const NO_SUCH_HASH = '0'.repeat(64);

/** What a record's secret was last proven with, and the (shared, frozen) tenant it grants. */
interface Proven {
  secret: Buffer;
  tenant: TenantContext;
}

// Per cached record, so a repeat caller skips the hash and the request gets no new objects.
const proven = new WeakMap<ApiKeyRecord, Proven>();

/** The record's tenant when the secret matches it, else undefined. */
function tenantFor(record: ApiKeyRecord, secret: string): TenantContext | undefined {
  const incoming = Buffer.from(secret);
  const known = proven.get(record);
  if (known && known.secret.length === incoming.length && timingSafeEqual(known.secret, incoming)) {
    return known.tenant;
  }
  if (!constantTimeEqual(sha256Hex(secret), record.secretHash)) return undefined;
  const tenant = Object.freeze({ tenantId: record.tenantId, projectId: record.projectId, settings: record.settings });
  proven.set(record, { secret: incoming, tenant });
  return tenant;
}

/**
 * The four key headers must all be present and name one active project. Every mismatch
 * gets the same 401 so a caller cannot learn which header was wrong.
 */
export function requireKeys(directory: PlatformDirectory): RequestHandler {
  return (req, _res, next) => {
    // Node lowercases header names, so X-API-KEY and x-api-key both arrive here.
    const { headers } = req;
    const apiKey = headers['x-api-key'];
    const secretKey = headers['x-secret-key'];
    const tenantId = headers['x-tenant-id'];
    const projectId = headers['x-project-id'];
    if (!usable(apiKey) || !usable(secretKey) || !usable(tenantId) || !usable(projectId)) throw errors.unauthorized();
    const accept = (record: ApiKeyRecord | null) => {
      if (!record) {
        // The same hash work as for a known key, so timing does not tell the two apart.
        constantTimeEqual(sha256Hex(secretKey), NO_SUCH_HASH);
        throw errors.unauthorized();
      }
      const tenant = tenantFor(record, secretKey);
      if (!tenant || tenant.tenantId !== tenantId || tenant.projectId !== projectId) throw errors.unauthorized();
      req.tenant = tenant;
      next();
    };
    // A cached key is answered synchronously: most requests then cost no promise at all.
    const cached = directory.cachedKey(apiKey);
    if (cached !== undefined) return accept(cached);
    return directory.findKey(apiKey).then(accept);
  };
}
