import type { Knex } from 'knex';
import {
  isUuid,
  LOOKUPS_BUSY,
  type ApiKeyRecord,
  type KeyCheckLimits,
  type KeyDirectory,
  type ProjectSettings,
} from '@platform/tenancy';
import { FixedWindowCounter, TtlCache } from '@platform/limits';
import type { SecretBox } from './secret-box';
import { Slots } from './slots';

export interface ProjectRecord {
  tenantId: string;
  projectId: string;
  settings: ProjectSettings;
  /** The organisation is suspended by an operator. */
  suspended?: boolean;
}

export interface DirectoryOptions {
  /** How long a found key is trusted without asking the database; at most 60 s (RESOLUTIONS 2). */
  ttlMs?: number;
  /** How long "no such key" is remembered, so a flood of bad keys cannot hammer the database. */
  negativeTtlMs?: number;
  /** Budgets of key checks that do not hit the cache (config `keyChecks`). */
  keyChecks?: Partial<KeyCheckLimits>;
}

export const DEFAULT_KEY_CHECK_LIMITS: KeyCheckLimits = {
  failuresPerAddress: 30,
  failureWindowMs: 60_000,
  lookupConcurrency: 2,
  lookupQueue: 100,
  unknownKeysCached: 10_000,
};

/** How long a key that was found stays known as real, past its cache entry (the key check lets it be looked up again). */
const RECENTLY_VALID_MS = 15 * 60_000;

/**
 * Read access to the platform database (tenants, projects, keys), with the in-memory
 * cache that lets a valid request pass without a database round trip. It is the
 * `KeyDirectory` the key check of @platform/tenancy asks.
 */
export class PlatformDirectory implements KeyDirectory {
  private readonly keys: TtlCache<ApiKeyRecord>;
  /** Public keys found in the database lately; only a lookup that found one adds to it, so unknown keys cannot push them out. */
  private readonly recentlyValid: TtlCache<true>;
  private readonly unknownKeys: TtlCache<null>;
  private readonly projects: TtlCache<ProjectRecord | null>;
  private readonly inflight = new Map<string, Promise<ApiKeyRecord | null | typeof LOOKUPS_BUSY>>();
  private readonly lookups: Slots;
  /** Failed key checks per client address (counted and judged by the key check). */
  readonly failedChecks: FixedWindowCounter;
  readonly ttlMs: number;
  private readonly negativeTtlMs: number;

  constructor(
    private readonly db: Knex,
    private readonly secrets?: SecretBox,
    options: DirectoryOptions = {},
  ) {
    this.ttlMs = Math.min(options.ttlMs ?? 30_000, 60_000);
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    const limits = { ...DEFAULT_KEY_CHECK_LIMITS, ...options.keyChecks };
    this.keys = new TtlCache();
    this.unknownKeys = new TtlCache(limits.unknownKeysCached);
    this.recentlyValid = new TtlCache(limits.unknownKeysCached);
    this.projects = new TtlCache(1_000);
    this.lookups = new Slots(limits.lookupConcurrency, limits.lookupQueue);
    this.failedChecks = new FixedWindowCounter(limits.failuresPerAddress, limits.failureWindowMs);
  }

  /** The cached answer for a key, without waiting: undefined when the cache does not know it. */
  cachedKey(publicKey: string): ApiKeyRecord | null | undefined {
    return this.keys.get(publicKey) ?? this.unknownKeys.get(publicKey);
  }

  /** Whether this public key was found in the database within the last minutes (whatever its cache entry says now). */
  wasRecentlyValid(publicKey: string): boolean {
    return this.recentlyValid.get(publicKey) === true;
  }

  /** A known key's record: null when unknown, LOOKUPS_BUSY when too many lookups are already waiting. */
  async findKey(publicKey: string): Promise<ApiKeyRecord | null | typeof LOOKUPS_BUSY> {
    const cached = this.cachedKey(publicKey);
    if (cached !== undefined) return cached;
    const pending = this.inflight.get(publicKey);
    if (pending) return pending;
    const lookup = this.limitedLoadKey(publicKey).finally(() => this.inflight.delete(publicKey));
    this.inflight.set(publicKey, lookup);
    return lookup;
  }

  private async limitedLoadKey(publicKey: string): Promise<ApiKeyRecord | null | typeof LOOKUPS_BUSY> {
    if (!(await this.lookups.acquire())) return LOOKUPS_BUSY;
    try {
      return await this.loadKey(publicKey);
    } finally {
      this.lookups.release();
    }
  }

  private async loadKey(publicKey: string): Promise<ApiKeyRecord | null> {
    const row = await this.db('api_keys as k')
      .join('projects as p', 'p.id', 'k.project_id')
      .join('tenants as t', 't.id', 'p.tenant_id')
      .where('k.public_key', publicKey)
      .whereNull('k.revoked_at')
      .where((q) => q.whereNull('k.expires_at').orWhere('k.expires_at', '>', this.db.fn.now()))
      .first(
        'k.public_key',
        'k.secret_hash',
        'k.last_used_at',
        'p.id as project_id',
        'p.tenant_id',
        'p.settings',
        't.suspended_at',
      );
    const record: ApiKeyRecord | null = row
      ? {
          publicKey: row.public_key,
          secretHash: row.secret_hash,
          tenantId: row.tenant_id,
          projectId: row.project_id,
          settings: row.settings ?? {},
          ...(row.suspended_at ? { suspended: true } : {}),
        }
      : null;
    if (record) this.noteUse(publicKey, row.last_used_at);
    if (record) {
      this.keys.set(publicKey, record, this.ttlMs);
      this.recentlyValid.set(publicKey, true, RECENTLY_VALID_MS);
    } else this.unknownKeys.set(publicKey, null, this.negativeTtlMs);
    return record;
  }

  /**
   * Last use of a key, approximate: written only when the key is looked up in the database (once
   * per cache TTL and process at most) and the stored time is over a minute old, never per request.
   * A failed write is ignored: the key check must not depend on it.
   */
  private noteUse(publicKey: string, lastUsedAt: Date | null): void {
    if (lastUsedAt && Date.now() - lastUsedAt.getTime() < 60_000) return;
    this.db('api_keys')
      .where({ public_key: publicKey })
      .update({ last_used_at: this.db.fn.now() })
      .catch(() => undefined);
  }

  /** A project by id (for work that arrives without keys: webhooks, events). */
  async findProject(tenantId: string, projectId: string): Promise<ProjectRecord | null> {
    const cacheKey = `${tenantId}/${projectId}`;
    const cached = this.projects.get(cacheKey);
    if (cached !== undefined) return cached;
    if (!isUuid(tenantId) || !isUuid(projectId)) return null;
    // A deleted project is gone for every caller (its data is being erased); a suspended
    // organisation's project is found, marked, so that each caller refuses it as it refuses keys.
    const row = await this.db('projects as p')
      .join('tenants as t', 't.id', 'p.tenant_id')
      .where({ 'p.id': projectId, 'p.tenant_id': tenantId })
      .whereNull('p.deleted_at')
      .first('p.id', 'p.tenant_id', 'p.settings', 't.suspended_at');
    const record: ProjectRecord | null = row
      ? {
          tenantId: row.tenant_id,
          projectId: row.id,
          settings: row.settings ?? {},
          ...(row.suspended_at ? { suspended: true } : {}),
        }
      : null;
    this.projects.set(cacheKey, record, record ? this.ttlMs : this.negativeTtlMs);
    return record;
  }

  /** The secret that signs this project's outbound webhooks. */
  async webhookSecret(projectId: string): Promise<string | null> {
    if (!this.secrets) throw new Error('PlatformDirectory needs a SecretBox to read webhook secrets');
    if (!isUuid(projectId)) return null;
    const row = await this.db('projects').where({ id: projectId }).first('webhook_secret_enc');
    return row?.webhook_secret_enc ? this.secrets.decrypt(row.webhook_secret_enc) : null;
  }

  /** Forget everything cached (tests, and an admin change made in the same process). */
  clearCache(): void {
    this.keys.clear();
    this.unknownKeys.clear();
    this.recentlyValid.clear();
    this.projects.clear();
  }
}
