import type { Route } from '../providers/providers.service';
import type { VendorSendError } from '../transports/transport';

/**
 * Whether a failed attempt is the provider's problem, so the next provider may do better: no
 * answer (timeout, connection), a 5xx, refused credentials, or throttling. Any other 4xx is
 * about the message itself and would fail the same way everywhere.
 */
export function failsOver(failure: VendorSendError): boolean {
  if (failure.unreachable) return true;
  const status = failure.vendorStatus;
  return status === undefined || status >= 500 || [401, 403, 408, 429].includes(status);
}

/** Bounds the memory of provider failures (one entry per failing provider id). */
const MAX_TRACKED = 10_000;

/**
 * Providers that keep failing: after `threshold` consecutive failures a provider is skipped for
 * `cooldownMs`, then tried again (one more failure starts a new cool-down). Per process: each
 * replica learns on its own, which costs at most `threshold` attempts per replica.
 */
export class ProviderCooldowns {
  private readonly failures = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  coolingDown(providerId: string | null): boolean {
    if (!providerId) return false;
    const entry = this.failures.get(providerId);
    return entry !== undefined && entry.until > this.now();
  }

  failed(providerId: string | null): void {
    if (!providerId) return;
    const entry = this.failures.get(providerId) ?? { count: 0, until: 0 };
    entry.count += 1;
    if (entry.count >= this.threshold) {
      entry.until = this.now() + this.cooldownMs;
      entry.count = 0;
    }
    if (!this.failures.has(providerId) && this.failures.size >= MAX_TRACKED) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(providerId, entry);
  }

  succeeded(providerId: string | null): void {
    if (providerId) this.failures.delete(providerId);
  }

  /** The routes to try, in order, leaving out those cooling down, unless that would leave none. */
  order(routes: Route[]): Route[] {
    const available = routes.filter((route) => !this.coolingDown(route.providerId));
    return available.length ? available : routes;
  }
}
