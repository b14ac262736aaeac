import { AppError, errors } from '@platform/tenancy';
import { drawLease, leaseReturn, type Lease, type LeaseWish } from './admission-lease';
import type { Admission } from './limits.repository';
import type { AdmissionState } from './limits.mapper';

/** An admitted request: the project's default fallbacks, and the worst-case cost it reserved. */
export interface Admitted {
  defaults: string[];
  reservedUsd: number;
}

/**
 * The request's worst-case cost, given the project's default fallbacks (used when it names none).
 * `budgeted`: the project has a budget; a request that cannot be priced then throws an AppError,
 * which refuses it.
 */
export type Reservation = (defaults: string[], budgeted: boolean) => number;

export interface Waiter {
  reserve: Reservation;
  resolve(admitted: Admitted): void;
  reject(error: unknown): void;
}

export type Outcome =
  | { waiter: Waiter; admitted: Admitted; refused?: never }
  | { waiter: Waiter; admitted?: never; refused: AppError };

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
  return errors.rateLimited(
    `The project's ${which} limit is reached`,
    secondsUntil(state.now, new Date(state.windowStart.getTime() + 60_000)),
  );
}

/** What one transaction decided: the group's outcomes in order and the lease it drew, if any. */
export interface Decision {
  outcomes: Outcome[];
  lease?: Lease;
  largestReservationUsd: number;
}

/**
 * Takes the requests of one group in order, as if each had been admitted alone: a request is
 * admitted while the budget is not yet spent (counting the reservations of those before it), so
 * spend overshoots the budget by at most one request's cost. `held` is what this process's
 * previous lease still holds in the row: it is given back in the same update, so a process's own
 * lease never refuses its own requests. Then the next lease is drawn from what is left.
 */
export function decide(
  state: AdmissionState,
  group: Waiter[],
  held: Lease | undefined,
  wish: LeaseWish,
  now: number,
): { admission: Admission; result: Decision } {
  const given = held && leaseReturn(held);
  const sameMonth = held !== undefined && state.month.getTime() === held.state.month.getTime();
  const sameMinute = given?.window !== undefined && state.windowStart.getTime() === given.window.start;
  const heldUsd = sameMonth ? given!.releasedUsd : 0;
  const heldRequests = sameMinute ? given!.window!.returnedRequests : 0;
  let used = state.spentUsd + state.reservedUsd - heldUsd;
  let requests = state.windowRequests - heldRequests;
  let reservedUsd = 0;
  let admittedCount = 0;
  let largestReservationUsd = 0;
  const outcomes = group.map((waiter): Outcome => {
    const refused = refusalAt(state, used, requests);
    if (refused) return { waiter, refused };
    let reserved: number;
    try {
      reserved = waiter.reserve(state.fallbacks, state.monthlyBudgetUsd !== null);
    } catch (error) {
      if (error instanceof AppError) return { waiter, refused: error };
      throw error;
    }
    largestReservationUsd = Math.max(largestReservationUsd, reserved);
    used += reserved;
    reservedUsd += reserved;
    requests++;
    admittedCount++;
    return { waiter, admitted: { defaults: state.fallbacks, reservedUsd: reserved } };
  });
  const usdPerRequest = Math.max(wish.usdPerRequest, largestReservationUsd);
  const lease = drawLease(state, used, requests, { ...wish, usdPerRequest }, now);
  const leaseUsd = lease && Number.isFinite(lease.usd) ? lease.usd : 0;
  return {
    admission: {
      requests: admittedCount + (lease?.slotsInRow ?? 0) - heldRequests,
      reservedUsd: reservedUsd + leaseUsd - heldUsd,
    },
    result: { outcomes, lease, largestReservationUsd },
  };
}
