import type { Knex } from 'knex';
import { tenantKey } from '@platform/db';
import type { Logger } from '@platform/http';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Tenant } from '@platform/tenancy';
import { settle, type Settlement } from './limits.repository';

type Window = Settlement['window'];

/** Slots given back to the same minute add up; of two minutes only the later one still matters. */
function mergeWindows(pending: Window, added: Window): Window {
  if (!pending || !added) return pending ?? (added && { ...added });
  if (pending.start === added.start)
    return { start: pending.start, returnedRequests: pending.returnedRequests + added.returnedRequests };
  return pending.start > added.start ? pending : { ...added };
}

/** The least wait before a failed write is tried again. */
const RETRY_MIN_MS = 250;

/**
 * Settles finished requests, and what ended leases give back (unused USD, and slots to their
 * minute), against their project's meters off the request's path: what a project settles
 * together shares one update, written every `flushMs` (a recurring job, from the first
 * settlement to `close`). Until it is written a reservation stays in place, which only errs on
 * the safe side. A failed write is kept and added to the next one.
 */
export class MeterSettler {
  private pending = new Map<string, { tenant: Tenant; settlement: Settlement }>();
  private stopWrites?: StopFunction;
  private flushing?: Promise<void>;
  /** The last write failed: no write before this time (`performance.now()`). */
  private retryAt?: number;

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly flushMs: number,
  ) {}

  add(tenant: Tenant, settlement: Settlement): void {
    this.merge(tenant, settlement);
    this.stopWrites ??= startRecurringJob({
      name: 'usage meter settlement',
      intervalMs: this.flushMs,
      firstRunMs: this.flushMs,
      logger: this.logger,
      run: () => this.writeDue(),
    });
  }

  /** A run of the job: what is pending, unless a failed write still waits for its retry. */
  private async writeDue(): Promise<void> {
    if (!this.pending.size || (this.retryAt !== undefined && performance.now() < this.retryAt)) return;
    await this.flush();
  }

  /** Adds a settlement to the project's pending one (a copy: the caller's object is not changed). */
  private merge(tenant: Tenant, settlement: Settlement): void {
    const key = tenantKey(tenant);
    const entry = this.pending.get(key);
    if (entry) {
      entry.settlement.spentUsd += settlement.spentUsd;
      entry.settlement.releasedUsd += settlement.releasedUsd;
      entry.settlement.tokens += settlement.tokens;
      entry.settlement.window = mergeWindows(entry.settlement.window, settlement.window);
    } else this.pending.set(key, { tenant, settlement: { ...settlement } });
  }

  /** Writes what is pending now; a write already under way may not hold it, so it is waited for first. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /**
   * Before a read of the project's meters: when this replica holds settlements of it, they are
   * written first, so that a client sees its own spend at once. Not while a failed write waits
   * for its retry.
   */
  async catchUp(tenant: Tenant): Promise<void> {
    if (this.flushing) await this.flushing;
    if (this.retryAt === undefined && this.pending.has(tenantKey(tenant))) await this.flush();
  }

  /** Stops the job (after a run under way) and writes what is pending. */
  async close(): Promise<void> {
    await this.stopWrites?.();
    this.stopWrites = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.retryAt = undefined;
    for (const { tenant, settlement } of batch.values()) {
      try {
        await settle(this.db, tenant, settlement);
      } catch (error) {
        this.logger.warn('usage meters not settled yet; kept for a retry', { error: String(error) });
        this.merge(tenant, settlement);
        this.retryAt = performance.now() + Math.max(this.flushMs, RETRY_MIN_MS);
      }
    }
  }
}
