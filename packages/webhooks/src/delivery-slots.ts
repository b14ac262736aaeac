/**
 * The delivery slots of one process, shared by every project: at most `total` attempts at once,
 * and at most `perProject` of them for one project. A project whose receivers are slow (a
 * tarpit answering a byte at a time) fills its own share and no more; the callers of a project
 * without a free slot put its attempt back for later instead of waiting, so they never hold a
 * queue position that another project's delivery needs.
 */
export class DeliverySlots {
  private readonly held = new Map<string, number>();
  private inUse = 0;

  constructor(private readonly limits: { total: number; perProject: number }) {}

  /** A release function when a slot was free for this project, else null. */
  tryAcquire(projectId: string): (() => void) | null {
    const mine = this.held.get(projectId) ?? 0;
    if (this.inUse >= this.limits.total || mine >= this.limits.perProject) return null;
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
