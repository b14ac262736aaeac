/** A per-project count of something held open (streams) on this replica, with a cap. */
export class ProjectSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Takes a slot; false when the project holds `limit` already. */
  take(projectId: string): boolean {
    const count = this.held.get(projectId) ?? 0;
    if (count >= this.limit) return false;
    this.held.set(projectId, count + 1);
    return true;
  }

  release(projectId: string): void {
    const count = (this.held.get(projectId) ?? 1) - 1;
    if (count > 0) this.held.set(projectId, count);
    else this.held.delete(projectId);
  }
}
