import type { Settlement } from './limits.repository';
import type { AdmissionState } from './limits.mapper';
import type { Admitted, Reservation } from './admission-decision';

/**
 * A block of a project's allowance reserved in its row for this process, so that the common
 * request is admitted from memory. Its slots and USD are already counted in the row (other
 * replicas see them as used), so admitting within them keeps every limit; what is unused goes
 * back through the settle path when the lease ends. Infinity: that limit is not set, nothing of
 * it is reserved and the requests admitted are counted when the lease ends.
 */
export interface Lease {
  /** The project's row when the lease was drawn: limits, default fallbacks, its minute and month. */
  state: AdmissionState;
  slots: number;
  slotsInRow: number;
  usd: number;
  admitted: number;
  /** Tokens of this process's requests settled since the lease was drawn (tokensPerMinute). */
  tokensSince: number;
  drawnSlots: number;
  drawnUsd: number;
  drawnAt: number;
  /** performance.now() after which it admits nothing: its TTL, or the end of the database's minute. */
  expiresAt: number;
}

/** What a project's recent traffic in this process asks of its next lease. */
export interface LeaseWish {
  slots: number;
  usdPerRequest: number;
  ttlMs: number;
}

/** A lease takes at most this share of what is left under a limit: the other replicas keep theirs. */
const LEASE_SHARE = 1 / 4;
/** A lease ends this long before the database's minute does, so its slots are not used in the next. */
const MINUTE_END_MARGIN_MS = 100;

// Amounts are whole multiples of 1e-10 USD, as stored: rounding keeps a lease's running sums exact.
const floorUsd = (usd: number) => Math.floor(usd * 1e10) / 1e10;
const roundUsd = (usd: number) => Math.round(usd * 1e10) / 1e10;

/**
 * The lease a transaction draws after admitting its group, where `usedUsd` and `requests` count
 * that group: sized for the wish, capped to a share of what is left, none when nothing useful fits.
 */
export function drawLease(
  state: AdmissionState,
  usedUsd: number,
  requests: number,
  wish: LeaseWish,
  now: number,
): Lease | undefined {
  if (wish.ttlMs <= 0) return undefined;
  if (state.tokensPerMinute !== null && state.windowTokens >= state.tokensPerMinute) return undefined;
  const slots =
    state.requestsPerMinute === null
      ? Infinity
      : Math.min(wish.slots, Math.floor((state.requestsPerMinute - requests) * LEASE_SHARE));
  if (slots < 1) return undefined;
  let usd = Infinity;
  if (state.monthlyBudgetUsd !== null) {
    const left = state.monthlyBudgetUsd - usedUsd;
    if (left <= 0) return undefined;
    usd = floorUsd(Math.min(wish.slots * wish.usdPerRequest, left * LEASE_SHARE));
    // Too small for a typical request: it would only hold back what the other replicas could use.
    if (usd < wish.usdPerRequest) return undefined;
  }
  const minuteLeftMs = state.windowStart.getTime() + 60_000 - state.now.getTime() - MINUTE_END_MARGIN_MS;
  const lifeMs = Math.min(wish.ttlMs, minuteLeftMs);
  if (lifeMs <= 0) return undefined;
  return {
    state,
    slots,
    slotsInRow: Number.isFinite(slots) ? slots : 0,
    usd,
    admitted: 0,
    tokensSince: 0,
    drawnSlots: slots,
    drawnUsd: usd,
    drawnAt: now,
    expiresAt: now + lifeMs,
  };
}

/**
 * Admits a request from the lease if its worst case fits and the lease's limit state allows it.
 * A request the budget refuses outright (`reserve` throws) throws here too.
 */
export function takeFromLease(lease: Lease, reserve: Reservation, now: number): Admitted | undefined {
  if (now >= lease.expiresAt || lease.slots < 1) return undefined;
  const { state } = lease;
  if (state.tokensPerMinute !== null && state.windowTokens + lease.tokensSince >= state.tokensPerMinute) {
    return undefined;
  }
  const reservesUsd = Number.isFinite(lease.usd);
  const reservedUsd = reservesUsd ? reserve(state.fallbacks, true) : 0;
  if (reservedUsd > lease.usd) return undefined;
  lease.slots -= 1;
  lease.usd = roundUsd(lease.usd - reservedUsd);
  lease.admitted++;
  return { defaults: state.fallbacks, reservedUsd };
}

/** Most of a bounded part of the lease is used (an unbounded part never runs low). */
const mostlyUsed = (left: number, drawn: number) => Number.isFinite(drawn) && left <= drawn / 4;

/** Time to draw the next lease in the background: most of it used, or half its life gone. */
export function runningLow(lease: Lease, now: number): boolean {
  return (
    mostlyUsed(lease.slots, lease.drawnSlots) ||
    mostlyUsed(lease.usd, lease.drawnUsd) ||
    now >= lease.drawnAt + (lease.expiresAt - lease.drawnAt) / 2
  );
}

/** What ending the lease gives back to the row: its unused USD and slots (the admitted ones counted). */
export function leaseReturn(lease: Lease): Settlement {
  return {
    spentUsd: 0,
    releasedUsd: Number.isFinite(lease.usd) ? lease.usd : 0,
    tokens: 0,
    window: { start: lease.state.windowStart.getTime(), returnedRequests: lease.slotsInRow - lease.admitted },
  };
}

/**
 * A lease drawn while an older one was still in use (a background refresh): the older one's rest
 * joins it when both belong to the same minute and month and reserve the same limits; otherwise
 * the older one must be returned on its own (`undefined`).
 */
export function mergeLeases(newer: Lease, older: Lease): Lease | undefined {
  const sameWindow = newer.state.windowStart.getTime() === older.state.windowStart.getTime();
  const sameMonth = newer.state.month.getTime() === older.state.month.getTime();
  const sameKinds =
    Number.isFinite(newer.slots) === Number.isFinite(older.slots) &&
    Number.isFinite(newer.usd) === Number.isFinite(older.usd);
  if (!sameWindow || !sameMonth || !sameKinds) return undefined;
  return {
    ...newer,
    slots: newer.slots + older.slots,
    slotsInRow: newer.slotsInRow + older.slotsInRow,
    usd: roundUsd(newer.usd + older.usd),
    admitted: newer.admitted + older.admitted,
    drawnSlots: newer.drawnSlots + older.slots,
    drawnUsd: newer.drawnUsd + older.usd,
  };
}
