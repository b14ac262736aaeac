import type { FixedWindowCounter } from '@platform/limits';
import type { ProjectSettings } from './tenant-context';

/** An active key as the key check needs it: the project it names and the hash of its secret. */
export interface ApiKeyRecord {
  publicKey: string;
  secretHash: string;
  tenantId: string;
  projectId: string;
  settings: ProjectSettings;
  /** The tenant is suspended by an operator: its keys are refused with 403. */
  suspended?: boolean;
}

/** What bounds the key checks a flood of unknown keys can cause. */
export interface KeyCheckLimits {
  /** Failed key checks one client address may make per window before it gets 429 without a lookup. */
  failuresPerAddress: number;
  failureWindowMs: number;
  /** Key lookups in the platform database at once (the pool's other connections stay free), and how many may wait. */
  lookupConcurrency: number;
  lookupQueue: number;
  /** Unknown keys remembered (a cache of its own: unknown keys never push out known ones). */
  unknownKeysCached: number;
}

/** Answer of a key lookup that could not be made: the line of lookups was full. */
export const LOOKUPS_BUSY = Symbol('key lookups busy');

/**
 * What the key check asks of the platform directory (`PlatformDirectory` of @platform/directory
 * fits it): named here so that tenancy never imports the package that owns the platform database.
 */
export interface KeyDirectory {
  /** Failed key checks per client address (keys.ts: an address over the limit gets 429 without a lookup), shared by every key check of the service. */
  readonly failedChecks: FixedWindowCounter;
  /** The cached answer for a key, without waiting: undefined when the cache does not know it. */
  cachedKey(publicKey: string): ApiKeyRecord | null | undefined;
  /** Whether this public key was found in the database within the last minutes (whatever its cache entry says now). */
  wasRecentlyValid(publicKey: string): boolean;
  /** A known key's record: null when unknown, LOOKUPS_BUSY when too many lookups are already waiting. */
  findKey(publicKey: string): Promise<ApiKeyRecord | null | typeof LOOKUPS_BUSY>;
  /** A project by id (cached), for requests that arrive with a member token instead of keys. */
  findProject(
    tenantId: string,
    projectId: string,
  ): Promise<Pick<ApiKeyRecord, 'tenantId' | 'projectId' | 'settings' | 'suspended'> | null>;
}
