import { errors } from '@platform/tenancy';
import { ProjectSlots } from '@platform/limits';

/** Takes one more slot for the same send, or null when its project has no more to give now. */
export type MoreSlots = () => (() => void) | null;

/**
 * Sends of one project, and of all projects, in flight on this replica. A send holds vendor
 * calls (and, under an Idempotency-Key, a pooled database connection) for as long as the
 * vendors take, so one project's stuck provider must not take every slot: a project holds at
 * most its share, `total / (projects sending + 1)` (at least 1, at most `perProject`), which
 * always leaves room for one more project. Past its share or the total, 429 at once: nothing
 * waits in a queue that another project needs.
 */
export class ProjectSendSlots {
  private readonly slots: ProjectSlots;

  constructor(perProject: number, total?: number) {
    this.slots = new ProjectSlots({ perProject, total, fairShare: true });
  }

  /** The most slots the project may hold now, given the projects sending besides it. */
  share(projectId: string): number {
    return this.slots.share(projectId);
  }

  /** Slots held now, in all or by one project. */
  holding(projectId?: string): number {
    return this.slots.holding(projectId);
  }

  /** A release function when the project's share and the total allow one more slot, else null. */
  tryAcquire(projectId: string): (() => void) | null {
    return this.slots.tryAcquire(projectId);
  }

  /**
   * Runs a send on one slot (429 when none is free for the project). `more` takes further slots
   * of the project's share for the send's other recipients; the send gives them back itself.
   */
  async run<T>(projectId: string, work: (more: MoreSlots) => Promise<T>): Promise<T> {
    const release = this.tryAcquire(projectId);
    if (!release) {
      const mine = this.holding(projectId) >= this.share(projectId);
      const message = mine
        ? `This project already has ${this.holding(projectId)} sends in progress, its share of this replica`
        : 'Too many sends in progress at the moment; try again';
      throw errors.rateLimited(message, 1);
    }
    try {
      return await work(() => this.tryAcquire(projectId));
    } finally {
      release();
    }
  }
}
