import { randomUUID } from 'node:crypto';
import { tenantKey, tenantOfRow } from '@platform/db';
import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Tenant } from '@platform/tenancy';
import {
  leaseSlots,
  releaseAllSlots,
  releaseSlots,
  renewSlots,
  type HeldSlot,
  type SlotRow,
} from './concurrency-slots.repository';

export type Release = () => void;

export interface ProjectLimiterOptions {
  /** Vendor calls in flight per project, across every worker process. */
  perProject: number;
  /** How long a slot stays leased without renewal: a killed worker's slots come back after it. */
  leaseMs: number;
  /** How often held leases are renewed (well within `leaseMs`). */
  renewMs: number;
  /** While calls wait and other processes hold the slots: how often to ask again. */
  pollMs?: number;
  /** While some calls of the project still run here, a slot unused this long is given back. */
  lingerMs?: number;
}

interface Waiter {
  resolve(release: Release | null): void;
}

/** This process's share of one project's slots. */
interface ProjectShare {
  tenant: Tenant;
  /** Slot numbers leased in the database; the local capacity. */
  slots: number[];
  /**
   * Until when (performance.now()) every slot in `slots` is surely still this process's: the
   * send time of the lease or renewal that last covered them all, plus `leaseMs` (the database
   * counts from a later moment). Past it, no new call starts here.
   */
  validUntil: number;
  /** Bumped whenever `slots` changes, so a renewal that overlapped a change leaves it alone. */
  version: number;
  active: number;
  waiting: Waiter[];
  leasing: boolean;
  pollTimer?: NodeJS.Timeout;
  trimTimer?: NodeJS.Timeout;
}

/**
 * Bounds the vendor calls in flight per project across all worker processes. Each process
 * leases slots (rows 0..perProject-1 per project in `batch_concurrency_slots`) a few at a time
 * and runs calls against them with an in-process counter, so a call costs no database round
 * trip: the database is asked only when the process needs more slots than it holds, to renew
 * its leases (every `renewMs`, one statement for all projects), and to give back slots it no
 * longer uses (at once when none of its calls for the project runs, else after `lingerMs`, so a
 * busy process does not give back and lease again between two chunks of items). A process that
 * dies stops renewing, and its slots are free again after `leaseMs`. A process cut off from
 * the database starts no new call once its leases may have run out (another process may have
 * taken the slots); calls already running finish, and at its next renewal it keeps what is still
 * its own.
 */
export class ProjectLimiter {
  private readonly holder = randomUUID();
  private readonly projects = new Map<string, ProjectShare>();
  private stopRenewals?: StopFunction;
  private closed = false;
  private abandoned = false;
  private readonly pollMs: number;
  private readonly lingerMs: number;
  /** The fewest slots asked for at once: a quarter of the limit, so two processes starting together both get some. */
  private readonly leaseStep: number;

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly options: ProjectLimiterOptions,
  ) {
    this.pollMs = options.pollMs ?? 50;
    this.lingerMs = options.lingerMs ?? 200;
    this.leaseStep = Math.ceil(options.perProject / 4);
  }

  start(): void {
    this.stopRenewals = startRecurringJob({
      name: 'batch concurrency slot renewal',
      intervalMs: this.options.renewMs,
      firstRunMs: this.options.renewMs,
      logger: this.logger,
      run: () => this.renew(),
    });
  }

  /**
   * Waits for a slot of the project; resolves with its release, or null when `signal` aborts
   * or the limiter closes first.
   */
  acquire(tenant: Tenant, signal?: AbortSignal): Promise<Release | null> {
    if (this.closed || signal?.aborted) return Promise.resolve(null);
    const state = this.stateOf(tenant);
    if (state.active < this.usableSlots(state)) {
      state.active++;
      this.keepSlots(state);
      return Promise.resolve(this.releaseFor(state));
    }
    return new Promise<Release | null>((resolve) => {
      const onAbort = () => {
        const index = state.waiting.indexOf(waiter);
        if (index >= 0) state.waiting.splice(index, 1);
        resolve(null);
        this.forgetIfUnused(state);
      };
      const waiter: Waiter = {
        resolve: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      state.waiting.push(waiter);
      void this.lease(state);
    });
  }

  /** No more slots are handed out; waiting calls get null. Held slots stay until `releaseAll`. */
  close(): void {
    this.closed = true;
    for (const state of this.projects.values()) {
      clearTimeout(state.pollTimer);
      clearTimeout(state.trimTimer);
      for (const waiter of state.waiting.splice(0)) waiter.resolve(null);
    }
  }

  /** A clean stop, once no call runs any more: every lease is given back at once. */
  async releaseAll(): Promise<void> {
    this.close();
    await this.stopRenewals?.();
    this.projects.clear();
    await releaseAllSlots(this.db, this.holder);
  }

  /** As a killed process: nothing more is written, the leases run out on their own. */
  abandon(): void {
    this.abandoned = true;
    this.close();
    // A renewal in flight is not waited for: with the projects dropped, its answer changes nothing.
    void this.stopRenewals?.();
    this.projects.clear();
  }

  private stateOf(tenant: Tenant): ProjectShare {
    const key = tenantKey(tenant);
    let state = this.projects.get(key);
    if (!state) {
      state = { tenant, slots: [], validUntil: 0, version: 0, active: 0, waiting: [], leasing: false };
      this.projects.set(key, state);
    }
    return state;
  }

  private releaseFor(state: ProjectShare): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.active--;
      this.grant(state);
      if (state.waiting.length || state.active >= state.slots.length) return;
      // Nothing of the project runs here any more: another process may take the slots at once.
      if (state.active === 0) this.trim(state);
      else this.scheduleTrim(state);
    };
  }

  /** Slots a new call may use: none once the leases may have run out without a renewal. */
  private usableSlots(state: ProjectShare): number {
    return performance.now() < state.validUntil ? state.slots.length : 0;
  }

  private grant(state: ProjectShare): void {
    while (state.waiting.length && state.active < this.usableSlots(state)) {
      state.active++;
      this.keepSlots(state);
      state.waiting.shift()!.resolve(this.releaseFor(state));
    }
  }

  /**
   * A slot was taken again: the pending give-back is off. Only slots unused for `lingerMs` go
   * back, else a busy process returns slots between two chunks and waits to lease them again.
   */
  private keepSlots(state: ProjectShare): void {
    if (!state.trimTimer) return;
    clearTimeout(state.trimTimer);
    state.trimTimer = undefined;
  }

  /** Asks the database for more slots while calls wait; one request per project at a time. */
  private async lease(state: ProjectShare): Promise<void> {
    const missing = this.options.perProject - state.slots.length;
    if (this.closed || state.leasing || !state.waiting.length || missing <= 0) return;
    state.leasing = true;
    clearTimeout(state.pollTimer);
    state.pollTimer = undefined;
    // At least as many again as held: a process that has work ramps up in a few round trips.
    const count = Math.min(missing, Math.max(state.waiting.length, this.leaseStep, state.slots.length));
    let gotAll = false;
    const sentAt = performance.now();
    try {
      const leased = await leaseSlots(this.db, state.tenant, this.holder, {
        limit: this.options.perProject,
        count,
        leaseMs: this.options.leaseMs,
        own: state.slots,
      });
      gotAll = leased.length === count;
      if (this.closed) {
        // Stopped meanwhile: give them straight back (a killed process leaves them to expire).
        if (!this.abandoned) await releaseSlots(this.db, state.tenant, this.holder, leased);
        return;
      }
      // With slots already held, their earlier expiry stands (and, if it has passed, only a
      // renewal can tell whether they are still this process's).
      if (!state.slots.length && leased.length) state.validUntil = sentAt + this.options.leaseMs;
      state.slots.push(...leased);
      state.version++;
      this.grant(state);
      if (!state.waiting.length && state.active < state.slots.length) this.scheduleTrim(state);
    } catch (error) {
      this.logger.warn('batch concurrency slots could not be leased', { error: String(error) });
    } finally {
      state.leasing = false;
    }
    if (!state.waiting.length) this.forgetIfUnused(state);
    if (this.closed || !state.waiting.length || state.slots.length >= this.options.perProject) return;
    // More calls wait: ask again at once if slots were there, else soon (other processes hold
    // them, or the database is away).
    if (gotAll) void this.lease(state);
    else {
      state.pollTimer = setTimeout(() => void this.lease(state), this.pollMs);
      state.pollTimer.unref();
    }
  }

  private scheduleTrim(state: ProjectShare): void {
    if (state.trimTimer || this.closed) return;
    state.trimTimer = setTimeout(() => {
      state.trimTimer = undefined;
      this.trim(state);
    }, this.lingerMs);
    state.trimTimer.unref();
  }

  /** Gives back the slots no call uses now, so another process can take them. */
  private trim(state: ProjectShare): void {
    if (this.closed || state.waiting.length) return;
    const surplus = state.slots.length - state.active;
    if (surplus <= 0) return;
    const given = state.slots.splice(state.slots.length - surplus, surplus);
    state.version++;
    this.forgetIfUnused(state);
    releaseSlots(this.db, state.tenant, this.holder, given).catch((error) =>
      // Not renewed any more, they come back when their lease runs out.
      this.logger.warn('batch concurrency slots could not be given back', { error: String(error) }),
    );
  }

  private forgetIfUnused(state: ProjectShare): void {
    if (state.slots.length || state.active || state.waiting.length || state.leasing) return;
    clearTimeout(state.pollTimer);
    clearTimeout(state.trimTimer);
    const key = tenantKey(state.tenant);
    if (this.projects.get(key) === state) this.projects.delete(key);
  }

  /**
   * Extends every held lease in one statement; slots another process took after a lapse are
   * dropped here, and the slots kept are usable again until `leaseMs` after the statement left.
   */
  private async renew(): Promise<void> {
    const held: HeldSlot[] = [];
    const sent = new Map<ProjectShare, { version: number; slots: Set<number> }>();
    for (const state of this.projects.values()) {
      sent.set(state, { version: state.version, slots: new Set(state.slots) });
      for (const slot of state.slots) held.push({ tenant: state.tenant, slot });
    }
    if (!held.length) return;
    let kept: SlotRow[];
    const sentAt = performance.now();
    try {
      kept = await renewSlots(this.db, this.holder, held, this.options.leaseMs);
    } catch (error) {
      this.logger.warn('batch concurrency slots could not be renewed', { error: String(error) });
      return;
    }
    const still = new Set(kept.map((s) => `${tenantKey(tenantOfRow(s))}/${s.slot}`));
    let lost = 0;
    for (const [state, before] of sent) {
      const isKept = (slot: number) => still.has(`${tenantKey(state.tenant)}/${slot}`);
      // Slots leased while the statement ran were not in it; they expire later than the rest.
      const gone = state.slots.filter((slot) => before.slots.has(slot) && !isKept(slot));
      const unchanged = state.version === before.version;
      if (gone.length && unchanged) {
        lost += gone.length;
        // Calls already running on a lost slot finish; no new one starts until the count is back under.
        state.slots = state.slots.filter(isKept);
        state.version++;
      }
      // With a slot lost while the slots changed, the next renewal sorts it out first.
      if (unchanged || !gone.length) {
        state.validUntil = Math.max(state.validUntil, sentAt + this.options.leaseMs);
      }
      this.grant(state);
      // Calls still waiting (the slots lost, or not usable yet) ask for slots again.
      if (state.waiting.length) void this.lease(state);
    }
    if (lost) this.logger.warn('batch concurrency slots lost to another worker after a lapsed lease', { count: lost });
  }
}
