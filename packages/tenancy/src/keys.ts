import { createPublicKey, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { constantTimeEqual, sha256Hex } from './crypto';
import { errors } from './errors';
import { bearerTokenOf, verifyAccessToken } from './bearer';
import { headersOnly } from './body-order';
import { byIp } from './rate-limit';
import { LOOKUPS_BUSY, type ApiKeyRecord, type KeyDirectory } from './key-directory';
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

// Held (HeldRefusals): an address over its limit is flooding, and answering it at once invites the next try.
const tooManyFailures = (seconds: number, address: string) =>
  errors.rateLimited('Too many failed key checks from this address; try again later', seconds, {
    offender: `address ${address}`,
  });

const lookupsBusy = () => errors.rateLimited('Too many key checks at the moment; try again', 1);

/**
 * The four key headers must all be present and name one active project. Every mismatch
 * gets the same 401 so a caller cannot learn which header was wrong. Failed checks are counted
 * per client address: an address over its limit gets 429 for any key not known as valid
 * lately, before any database work (a flood of made-up keys costs no queries).
 */
export function requireKeys(directory: KeyDirectory): RequestHandler {
  return headersOnly((req, _res, next) => {
    // Node lowercases header names, so X-API-KEY and x-api-key both arrive here.
    const { headers } = req;
    const apiKey = headers['x-api-key'];
    const secretKey = headers['x-secret-key'];
    const tenantId = headers['x-tenant-id'];
    const projectId = headers['x-project-id'];
    const { failedChecks } = directory;
    const fail = (): never => {
      failedChecks.record(byIp(req));
      throw errors.unauthorized();
    };
    if (!usable(apiKey) || !usable(secretKey) || !usable(tenantId) || !usable(projectId)) return fail();
    const accept = (record: ApiKeyRecord | null | typeof LOOKUPS_BUSY) => {
      if (record === LOOKUPS_BUSY) throw lookupsBusy();
      if (!record) {
        // The same hash work as for a known key, so timing does not tell the two apart.
        constantTimeEqual(sha256Hex(secretKey), NO_SUCH_HASH);
        return fail();
      }
      const tenant = tenantFor(record, secretKey);
      if (!tenant || tenant.tenantId !== tenantId || tenant.projectId !== projectId) return fail();
      // Only a caller who proved the key learns of the suspension.
      if (record.suspended) throw errors.forbidden('Organisation suspended');
      req.tenant = tenant;
      next();
    };
    // A cached key is answered synchronously: most requests then cost no promise at all.
    const cached = directory.cachedKey(apiKey);
    if (cached) return accept(cached);
    // A key that was real a few minutes ago is looked up again even then: a valid client behind
    // the same address as a flood keeps working after its cache entry expires.
    const address = byIp(req);
    const blocked = failedChecks.blockedFor(address);
    if (blocked && !directory.wasRecentlyValid(apiKey)) throw tooManyFailures(blocked, address);
    if (cached === null) return accept(cached);
    return directory.findKey(apiKey).then(accept);
  });
}

/** The public key a request names, in the key headers or in the single credential `Bearer pk_….sk_…`. */
function namedKey(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string') return apiKey;
  return /^Bearer\s+(pk_[^.\s]{1,500})\./.exec(headers.authorization ?? '')?.[1];
}

/**
 * Runs before the body is read, on every request: from an address over its failed-check limit,
 * only a key known as valid lately (in the key headers or the single credential) or, when
 * `accessTokenKey` is given, a valid end-user access token gets through; anything else (another
 * key, another token, no credential at all) gets 429 before any database lookup and without its
 * body being read. A flood of made-up keys with large bodies then costs no parsing either; the 429
 * is held a while (HeldRefusals), so a client that retries at once slows down to a request per
 * hold and connection.
 */
export function refuseFloodingAddresses(
  directory: KeyDirectory,
  options: { accessTokenKey?: string } = {},
): RequestHandler {
  const tokenKey = options.accessTokenKey ? createPublicKey(options.accessTokenKey) : undefined;
  return (req, _res, next) => {
    // While no check has failed, no address is blocked: the address is not even worked out.
    if (!directory.failedChecks.counting) return next();
    const address = byIp(req);
    const blocked = directory.failedChecks.blockedFor(address);
    if (!blocked) return next();
    const apiKey = namedKey(req.headers);
    if (apiKey !== undefined && (directory.cachedKey(apiKey) || directory.wasRecentlyValid(apiKey))) return next();
    const token = apiKey === undefined && tokenKey ? bearerTokenOf(req.headers.authorization) : undefined;
    if (token && verifyAccessToken(token, tokenKey!)) return next();
    throw tooManyFailures(blocked, address);
  };
}
