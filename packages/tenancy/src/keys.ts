import type { RequestHandler } from 'express';
import { constantTimeEqual, sha256Hex } from './crypto';
import { errors } from './errors';
import type { ApiKeyRecord, PlatformDirectory } from './platform-directory';

const usable = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length < 512;

// The secret last proven against each cached record, so a repeat caller skips the hash.
const verified = new WeakMap<ApiKeyRecord, string>();

function secretOf(record: ApiKeyRecord, secret: string): boolean {
  const known = verified.get(record);
  if (known !== undefined && constantTimeEqual(known, secret)) return true;
  const matches = constantTimeEqual(sha256Hex(secret), record.secretHash);
  if (matches) verified.set(record, secret);
  return matches;
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
      const secretMatches = record
        ? secretOf(record, secretKey)
        : constantTimeEqual(sha256Hex(secretKey), '0'.repeat(64));
      if (!record || !secretMatches || record.tenantId !== tenantId || record.projectId !== projectId) {
        throw errors.unauthorized();
      }
      req.tenant = { tenantId: record.tenantId, projectId: record.projectId, settings: record.settings };
      next();
    };
    // A cached key is answered synchronously: most requests then cost no promise at all.
    const cached = directory.cachedKey(apiKey);
    if (cached !== undefined) return accept(cached);
    return directory.findKey(apiKey).then(accept);
  };
}
