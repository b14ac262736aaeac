import type { Knex } from 'knex';
import { AppError, type Tenant } from '@platform/tenancy';
import { admitGroup, readFallbacks, type AdmissionState } from './limits.repository';

/** An admitted request: the project's default fallbacks, and the worst-case cost it reserved. */
export interface Admitted {
  defaults: string[];
  reservedUsd: number;
}

/** The request's worst-case cost, given the project's default fallbacks (used when it names none). */
export type Reservation = (defaults: string[]) => number;

interface Waiter {
  reserve: Reservation;
  resolve(admitted: Admitted): void;
  reject(error: unknown): void;
}

interface ProjectQueue {
  tenant: Tenant;
  waiting: Waiter[];
}

const secondsUntil = (from: Date, to: Date) => Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));

/** Which limit refuses a request at this state (budget first), with when trying again makes sense. */
export function refusalAt(state: AdmissionState, usedUsd: number, requests: number): AppError | undefined {
  if (state.monthlyBudgetUsd !== null && usedUsd >= state.monthlyBudgetUsd) {
    const nextMonth = new Date(Date.UTC(state.month.getUTCFullYear(), state.month.getUTCMonth() + 1, 1));
    return new AppError('BUDGET_EXCEEDED', "The project's monthly budget is spent", {
      headers: { 'Retry-After': String(secondsUntil(state.now, nextMonth)) },
    });
  }
  const which =
    state.tokensPerMinute !== null && state.windowTokens >= state.tokensPerMinute
      ? 'tokensPerMinute'
      : state.requestsPerMinute !== null && requests >= state.requestsPerMinute
        ? 'requestsPerMinute'
        : undefined;
  if (!which) return undefined;
  return new AppError('RATE_LIMITED', `The project's ${which} limit is reached`, {
    headers: { 'Retry-After': String(secondsUntil(state.now, new Date(state.windowStart.getTime() + 60_000))) },
  });
}

/**
 * Takes the requests of one group in order, as if each had been admitted alone: a request is
 * admitted while the budget is not yet spent (counting the reservations of those before it), so
 * spend overshoots the budget by at most one request's cost.
 */
function decide(state: AdmissionState, group: Waiter[]) {
  let used = state.spentUsd + state.reservedUsd;
  let requests = state.windowRequests;
  let reservedUsd = 0;
  const outcomes = group.map((waiter) => {
    const refused = refusalAt(state, used, requests);
    if (refused) return { waiter, refused };
    const reserved = waiter.reserve(state.fallbacks);
    used += reserved;
    reservedUsd += reserved;
    requests++;
    return { waiter, admitted: { defaults: state.fallbacks, reservedUsd: reserved } };
  });
  return { admission: { requests: requests - state.windowRequests, reservedUsd }, result: outcomes };
}

/**
 * Admission of gateway requests, coalesced per project in this process: at most one database
 * round trip per project at a time, and the requests that arrive meanwhile go together in the
 * next one. However many requests a project sends at once, it holds one pooled connection.
 */
export class Admissions {
  private readonly queues = new Map<string, ProjectQueue>();
  private readonly fallbackReads = new Map<string, Promise<string[]>>();

  constructor(private readonly db: Knex) {}

  /** Admits the request under the project's limits, or rejects with a 429 naming the limit. */
  admit(tenant: Tenant, reserve: Reservation): Promise<Admitted> {
    return new Promise<Admitted>((resolve, reject) => {
      const key = `${tenant.tenantId}/${tenant.projectId}`;
      const queue = this.queues.get(key);
      if (queue) {
        queue.waiting.push({ reserve, resolve, reject });
        return;
      }
      const started: ProjectQueue = { tenant, waiting: [{ reserve, resolve, reject }] };
      this.queues.set(key, started);
      void this.drain(key, started);
    });
  }

  /** The project's default fallbacks (when limits are off), one read at a time per project. */
  defaults(tenant: Tenant): Promise<string[]> {
    const key = `${tenant.tenantId}/${tenant.projectId}`;
    let read = this.fallbackReads.get(key);
    if (!read) {
      read = readFallbacks(this.db, tenant).finally(() => this.fallbackReads.delete(key));
      this.fallbackReads.set(key, read);
    }
    return read;
  }

  private async drain(key: string, queue: ProjectQueue): Promise<void> {
    while (queue.waiting.length) {
      const group = queue.waiting.splice(0);
      try {
        const outcomes = await admitGroup(this.db, queue.tenant, (state) => decide(state, group));
        for (const outcome of outcomes) {
          if (outcome.admitted) outcome.waiter.resolve(outcome.admitted);
          else outcome.waiter.reject(outcome.refused);
        }
      } catch (error) {
        for (const waiter of group) waiter.reject(error);
      }
    }
    this.queues.delete(key);
  }
}
