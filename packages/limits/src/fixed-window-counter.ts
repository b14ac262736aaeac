/**
 * Events per key (failed key checks per client address, over-budget requests per project) in
 * fixed windows, in memory: a key over the limit is refused before any further work. Bounded:
 * when full, the entry whose window started first goes (a flood from many keys forgets the
 * oldest, never grows without end).
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  /** Whether any key has an event counted (expired windows included): while none has, nothing is blocked. */
  get counting(): boolean {
    return this.windows.size > 0;
  }

  /** Seconds until the key may try again; 0 when it is not over the limit. */
  blockedFor(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now || window.count < this.limit) return 0;
    return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
  }

  record(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (window && window.resetAt > now) {
      window.count++;
      return;
    }
    this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
  }
}
