/**
 * Thread time per project as a token bucket: each project may use `msPerSecond` of thread time
 * per second on average, in bursts of up to `burstMs`. Charged after the work, so a request
 * started with time left may overdraw; the project then waits until the bucket is back above zero.
 */
export class TimeShare {
  private readonly buckets = new Map<string, { left: number; at: number }>();

  constructor(
    private readonly msPerSecond: number,
    private readonly burstMs: number,
    private readonly maxProjects = 10_000,
  ) {}

  /** Seconds until the project has thread time again; 0 when it has some now. */
  blockedFor(project: string, now = Date.now()): number {
    const left = this.left(project, now);
    return left > 0 ? 0 : Math.max(1, Math.ceil(-left / this.msPerSecond + 0.001));
  }

  charge(project: string, ms: number, now = Date.now()): void {
    const left = this.left(project, now) - ms;
    this.buckets.delete(project);
    // A full bucket is the default: only projects that owe time or have spent some are kept.
    if (left >= this.burstMs) return;
    if (this.buckets.size >= this.maxProjects) this.buckets.delete(this.buckets.keys().next().value as string);
    this.buckets.set(project, { left, at: now });
  }

  private left(project: string, now: number): number {
    const bucket = this.buckets.get(project);
    if (!bucket) return this.burstMs;
    return Math.min(this.burstMs, bucket.left + ((now - bucket.at) / 1000) * this.msPerSecond);
  }
}
