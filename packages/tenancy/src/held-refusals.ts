import type { Response } from 'express';
import { ProjectSlots } from '@platform/limits';

/** How refusals of repeat offenders are slowed down (config `refusalHolds`). */
export interface RefusalHoldLimits {
  /** Longest a refusal is held before it is sent (never past its Retry-After); 0 sends at once. */
  maxHoldMs: number;
  /** Refusals held at once for one offender (address or project); beyond, sent at once and the connection closed. */
  perOffender: number;
  /** Refusals held at once in all. */
  total: number;
}

export const DEFAULT_REFUSAL_HOLD_LIMITS: RefusalHoldLimits = { maxHoldMs: 1_000, perOffender: 32, total: 2_000 };

/**
 * Holds the 429 of a client that keeps going past a limit for a while before sending it (the
 * idea of express-slow-down): a client that retries as soon as it is answered then sends a
 * request per hold and connection instead of thousands a second, each of which the shared
 * event loop would answer. Bounded: held responses per offender and in all; beyond either,
 * the refusal goes at once with `Connection: close`, so a flood of connections costs a new
 * connection per request instead of memory.
 */
export class HeldRefusals {
  private readonly places: ProjectSlots;

  constructor(private readonly limits: RefusalHoldLimits = DEFAULT_REFUSAL_HOLD_LIMITS) {
    this.places = new ProjectSlots({ perProject: limits.perOffender, total: limits.total });
  }

  /**
   * Calls `send` after the hold (at most `retryAfterSeconds`), with the seconds still to wait
   * then; at once (with 0 held) when holding is off or the bounds are reached.
   */
  hold(offender: string, retryAfterSeconds: number, res: Response, send: (retryAfterSeconds: number) => void): void {
    const holdMs = Math.min(this.limits.maxHoldMs, retryAfterSeconds * 1000);
    if (holdMs <= 0) return send(retryAfterSeconds);
    const place = this.places.tryAcquire(offender);
    if (!place) {
      res.setHeader('Connection', 'close');
      return send(retryAfterSeconds);
    }
    const release = () => {
      clearTimeout(timer);
      res.off('close', release);
      place();
    };
    const timer = setTimeout(() => {
      release();
      send(Math.max(0, Math.ceil(retryAfterSeconds - holdMs / 1000)));
    }, holdMs);
    // A client that gives up frees its place at once.
    res.once('close', release);
  }
}
