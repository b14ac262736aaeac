/**
 * Slots of one process that projects hold (webhook attempts, open streams, sends in flight): at
 * most `perProject` for one project and, when given, `total` in all. Taking never waits: a
 * project without a free slot is refused at once, so it never holds a queue position that
 * another project needs (a project with slow receivers or vendors fills its own share and no more).
 */
export class ProjectSlots {
  private readonly held = new Map<string, number>();
  private inUse = 0;

  /**
   * With `fairShare`, a project holds at most `total / (projects holding + 1)` (at least 1, at
   * most `perProject`), which always leaves room for one more project.
   */
  constructor(private readonly limits: { perProject: number; total?: number; fairShare?: boolean }) {}

  /** The most slots the project may hold now. */
  share(projectId: string): number {
    const { perProject, total, fairShare } = this.limits;
    if (!fairShare || total === undefined) return perProject;
    const holders = this.held.size + (this.held.has(projectId) ? 0 : 1);
    return Math.min(perProject, Math.max(1, Math.floor(total / (holders + 1))));
  }

  /** A release function when a slot was free for this project, else null. */
  tryAcquire(projectId: string): (() => void) | null {
    const mine = this.held.get(projectId) ?? 0;
    if (this.inUse >= (this.limits.total ?? Infinity) || mine >= this.share(projectId)) return null;
    this.inUse++;
    this.held.set(projectId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse--;
      const left = (this.held.get(projectId) ?? 1) - 1;
      if (left === 0) this.held.delete(projectId);
      else this.held.set(projectId, left);
    };
  }

  /** Slots held now, in all or by one project. */
  holding(projectId?: string): number {
    return projectId === undefined ? this.inUse : (this.held.get(projectId) ?? 0);
  }
}
