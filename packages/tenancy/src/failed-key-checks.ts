/**
 * Failed key checks per client address in fixed windows, in memory: an address over the limit
 * is refused before any database work. Bounded: when full, the entry whose window started
 * first goes (a flood from many addresses forgets the oldest, never grows without end).
 */
export class FailedKeyChecks {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxAddresses = 50_000,
  ) {}

  /** Seconds until the address may try again; 0 when it is not over the limit. */
  blockedFor(address: string, now = Date.now()): number {
    const window = this.windows.get(address);
    if (!window || window.resetAt <= now || window.count < this.limit) return 0;
    return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
  }

  record(address: string, now = Date.now()): void {
    const window = this.windows.get(address);
    if (window && window.resetAt > now) {
      window.count++;
      return;
    }
    this.windows.delete(address);
    if (this.windows.size >= this.maxAddresses) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(address, { count: 1, resetAt: now + this.windowMs });
  }
}
