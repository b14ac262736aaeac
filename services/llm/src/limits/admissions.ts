import type { Knex } from 'knex';
import { tenantKey } from '@platform/db';
import type { Logger } from '@platform/http';
import type { Tenant } from '@platform/tenancy';
import { TtlCache } from '@platform/limits';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import { leaseReturn, mergeLeases, runningLow, takeFromLease, type Lease, type LeaseWish } from './admission-lease';
import { decide, type Admitted, type Reservation, type Waiter } from './admission-decision';
import { toAdmissionState } from './limits.mapper';
import { admitGroup, readFallbacks } from './limits.repository';
import type { MeterSettler } from './meter-settler';

export type { Admitted, Reservation } from './admission-decision';

/** A lease is sized for this many of its TTLs of the project's recent traffic here. */
const LEASE_TRAFFIC_TTLS = 1.5;

/**
 * How often expired leases are looked for: their rest goes back at most this late (an expired
 * lease admits nothing meanwhile, so it is only held a little longer, on the safe side).
 */
const EXPIRY_CHECK_MS = 100;

interface ProjectAdmissions {
  key: string;
  tenant: Tenant;
  lease?: Lease;
  waiting: Waiter[];
  /** A transaction of this project is under way (one at a time per project in this process). */
  drawing?: Promise<void>;
  /** Bumped when the project's limits change here: a lease drawn before must not be used. */
  generation: number;
  /** Requests asking since `demandSince`, and the smoothed rate (per second) of earlier periods. */
  demand: number;
  demandSince: number;
  rate?: number;
  largestReservationUsd: number;
}

export interface AdmissionsOptions {
  /** The longest a lease lives; 0: no leases, every request takes the locked transaction. */
  leaseTtlMs: number;
}

/**
 * Admission of gateway requests under their project's limits. The common request is admitted
 * from this process's lease on the project's allowance, in memory. The others (no lease, or one
 * that cannot hold the request) wait for the project's next transaction, coalesced per project:
 * at most one round trip per project at a time, the requests that arrive meanwhile going together
 * in the next one, which also draws the next lease. A lease running low is redrawn in the
 * background, before it is empty, so requests do not wait for it.
 */
export class Admissions {
  private readonly projects = new Map<string, ProjectAdmissions>();
  private readonly fallbackReads = new Map<string, Promise<string[]>>();
  private readonly fallbacks = new TtlCache<string[]>();
  private closed = false;
  /** Returns expired leases, a recurring job from the first lease to `close`. */
  private stopExpiry?: StopFunction;

  constructor(
    private readonly db: Knex,
    private readonly meters: MeterSettler,
    private readonly logger: Logger,
    private readonly options: AdmissionsOptions,
  ) {}

  /** Admits the request under the project's limits, or rejects with a 429 naming the limit. */
  admit(tenant: Tenant, reserve: Reservation): Promise<Admitted> {
    const project = this.projectOf(tenant);
    project.demand++;
    if (project.lease && !project.waiting.length) {
      const now = performance.now();
      let admitted: Admitted | undefined;
      try {
        admitted = takeFromLease(project.lease, reserve, now);
      } catch (error) {
        return Promise.reject(error);
      }
      if (admitted) {
        if (admitted.reservedUsd > project.largestReservationUsd) project.largestReservationUsd = admitted.reservedUsd;
        if (runningLow(project.lease, now)) this.startDrawing(project);
        return Promise.resolve(admitted);
      }
    }
    return new Promise<Admitted>((resolve, reject) => {
      project.waiting.push({ reserve, resolve, reject });
      this.startDrawing(project);
    });
  }

  /** Tokens a finished request used, for the tokensPerMinute check of this process's lease. */
  settled(tenant: Tenant, tokens: number): void {
    const lease = this.projects.get(tenantKey(tenant))?.lease;
    if (lease) lease.tokensSince += tokens;
  }

  /** The project's limits or default fallbacks changed here: its lease is returned at once. */
  forget(tenant: Tenant): void {
    const key = tenantKey(tenant);
    this.fallbacks.delete(key);
    this.fallbackReads.delete(key);
    const project = this.projects.get(key);
    if (!project) return;
    project.generation++;
    this.returnLease(project);
  }

  /**
   * The project's default fallbacks when limits are off: kept as long as a lease would keep them
   * (a change here is seen at once, one on another replica within the lease TTL), one read at a
   * time per project.
   */
  defaults(tenant: Tenant): Promise<string[]> {
    const key = tenantKey(tenant);
    const kept = this.fallbacks.get(key);
    if (kept) return Promise.resolve(kept);
    let read = this.fallbackReads.get(key);
    if (!read) {
      read = readFallbacks(this.db, tenant)
        .then((fallbacks) => {
          if (this.fallbackReads.get(key) === read && this.options.leaseTtlMs > 0) {
            this.fallbacks.set(key, fallbacks, this.options.leaseTtlMs);
          }
          return fallbacks;
        })
        .finally(() => {
          if (this.fallbackReads.get(key) === read) this.fallbackReads.delete(key);
        });
      this.fallbackReads.set(key, read);
    }
    return read;
  }

  /** Returns every lease (their unused reservations go to the meter settler), after the transactions under way. */
  async returnLeases(): Promise<void> {
    await Promise.all([...this.projects.values()].map((project) => project.drawing));
    for (const project of this.projects.values()) this.returnLease(project);
  }

  /** No lease is kept any more; those held are returned. The meter settler is closed after this. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stopExpiry?.();
    await this.returnLeases();
  }

  private projectOf(tenant: Tenant): ProjectAdmissions {
    const key = tenantKey(tenant);
    let project = this.projects.get(key);
    if (!project) {
      project = {
        key,
        tenant,
        waiting: [],
        generation: 0,
        demand: 0,
        demandSince: performance.now(),
        largestReservationUsd: 0,
      };
      this.projects.set(key, project);
    }
    return project;
  }

  private startDrawing(project: ProjectAdmissions): void {
    project.drawing ??= this.draw(project).finally(() => {
      project.drawing = undefined;
      this.forgetIfIdle(project);
    });
  }

  private async draw(project: ProjectAdmissions): Promise<void> {
    do {
      const group = project.waiting.splice(0);
      // The requests here did not fit the lease: its rest joins this transaction, so that this
      // process's own reservation never refuses them.
      const held = group.length ? this.detachLease(project) : undefined;
      const generation = project.generation;
      const wish = this.wish(project);
      try {
        const decision = await admitGroup(this.db, project.tenant, (row) =>
          decide(toAdmissionState(row), group, held, wish, performance.now()),
        );
        project.largestReservationUsd = Math.max(project.largestReservationUsd, decision.largestReservationUsd);
        if (decision.lease) this.install(project, decision.lease, generation);
        for (const outcome of decision.outcomes) {
          if (outcome.admitted) outcome.waiter.resolve(outcome.admitted);
          else outcome.waiter.reject(outcome.refused);
        }
      } catch (error) {
        if (held) this.meters.add(project.tenant, leaseReturn(held));
        for (const waiter of group) waiter.reject(error);
      }
      this.admitWaitingFromLease(project);
    } while (project.waiting.length);
  }

  /** What the project's recent demand here asks of the next lease; starts the next period. */
  private wish(project: ProjectAdmissions): LeaseWish {
    const now = performance.now();
    const observed = project.demand / Math.max(0.1, (now - project.demandSince) / 1000);
    project.rate = project.rate === undefined ? observed : (project.rate + observed) / 2;
    project.demand = 0;
    project.demandSince = now;
    const ttlMs = this.closed ? 0 : this.options.leaseTtlMs;
    return {
      slots: Math.max(1, Math.ceil((project.rate * ttlMs * LEASE_TRAFFIC_TTLS) / 1000)),
      usdPerRequest: project.largestReservationUsd,
      ttlMs,
    };
  }

  private install(project: ProjectAdmissions, drawn: Lease, generation: number): void {
    if (this.closed || generation !== project.generation) {
      this.meters.add(project.tenant, leaseReturn(drawn));
      return;
    }
    const older = this.detachLease(project);
    let lease = drawn;
    if (older) {
      const merged = mergeLeases(drawn, older);
      if (merged) lease = merged;
      else this.meters.add(project.tenant, leaseReturn(older));
    }
    project.lease = lease;
    const everyMs = Math.min(EXPIRY_CHECK_MS, this.options.leaseTtlMs);
    this.stopExpiry ??= startRecurringJob({
      name: 'gateway lease expiry',
      intervalMs: everyMs,
      firstRunMs: everyMs,
      logger: this.logger,
      run: async () => this.returnExpiredLeases(),
    });
  }

  private returnExpiredLeases(): void {
    const now = performance.now();
    for (const project of this.projects.values()) {
      if (!project.lease || project.lease.expiresAt > now) continue;
      this.returnLease(project);
      this.forgetIfIdle(project);
    }
  }

  /** Requests that queued during the transaction and fit the new lease need not wait for the next one. */
  private admitWaitingFromLease(project: ProjectAdmissions): void {
    const { lease } = project;
    if (!lease || !project.waiting.length) return;
    const now = performance.now();
    let taken = 0;
    for (const waiter of project.waiting) {
      let admitted: Admitted | undefined;
      try {
        admitted = takeFromLease(lease, waiter.reserve, now);
      } catch (error) {
        waiter.reject(error);
        taken++;
        continue;
      }
      if (!admitted) break;
      waiter.resolve(admitted);
      taken++;
    }
    project.waiting.splice(0, taken);
  }

  private detachLease(project: ProjectAdmissions): Lease | undefined {
    const { lease } = project;
    project.lease = undefined;
    return lease;
  }

  private returnLease(project: ProjectAdmissions): void {
    const lease = this.detachLease(project);
    if (lease) this.meters.add(project.tenant, leaseReturn(lease));
  }

  private forgetIfIdle(project: ProjectAdmissions): void {
    if (!project.lease && !project.drawing && !project.waiting.length) this.projects.delete(project.key);
  }
}
