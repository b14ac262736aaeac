/** A counting semaphore. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly capacity: number) {}

  async acquire(): Promise<void> {
    if (this.active < this.capacity) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }
}

/** Bounds the vendor calls in flight per project in this process, across all of its batches. */
export class ProjectLimiter {
  private readonly semaphores = new Map<string, Semaphore>();

  constructor(private readonly perProject: number) {}

  async acquire(projectId: string): Promise<() => void> {
    let semaphore = this.semaphores.get(projectId);
    if (!semaphore) {
      semaphore = new Semaphore(this.perProject);
      this.semaphores.set(projectId, semaphore);
    }
    await semaphore.acquire();
    const held = semaphore;
    return () => {
      held.release();
      if (held.idle && this.semaphores.get(projectId) === held) this.semaphores.delete(projectId);
    };
  }
}
