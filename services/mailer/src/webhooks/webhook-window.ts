/** Vendors sign unix seconds; anything else (empty, signed, fractional, absurdly long) is not a timestamp. */
const UNIX_SECONDS = /^\d{1,12}$/;

/**
 * Whether a vendor's signed timestamp lies within `toleranceSeconds` of now, in either
 * direction: an old one may be a captured request sent again, a far-future one a request
 * prepared to outlive the window.
 */
export function isWithinTolerance(timestamp: string, toleranceSeconds: number, nowMs = Date.now()): boolean {
  if (!UNIX_SECONDS.test(timestamp)) return false;
  return Math.abs(nowMs / 1000 - Number(timestamp)) <= toleranceSeconds;
}

/** The moment a signed timestamp leaves the window: until then a replay of it must be recognised. */
export function windowEndOf(timestamp: string, toleranceSeconds: number): Date {
  return new Date((Number(timestamp) + toleranceSeconds) * 1000);
}
