/** At most `size` holders at once; up to `maxWaiting` more wait in line, the rest are refused (false). */
export class Slots {
  private used = 0;
  private readonly line: (() => void)[] = [];

  constructor(
    private readonly size: number,
    private readonly maxWaiting: number,
  ) {}

  /** Resolves true with a slot held (give it back with `release`), or false at once when the line is full. */
  async acquire(): Promise<boolean> {
    if (this.used < this.size) {
      this.used++;
      return true;
    }
    if (this.line.length >= this.maxWaiting) return false;
    await new Promise<void>((resolve) => this.line.push(resolve));
    return true;
  }

  release(): void {
    const next = this.line.shift();
    if (next) next();
    else this.used--;
  }
}
