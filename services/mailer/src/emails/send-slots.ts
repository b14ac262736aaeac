import { AppError } from '@platform/tenancy';

/**
 * Sends of one project in flight on this replica. A send holds vendor calls (and, under an
 * Idempotency-Key, a pooled database connection) for as long as the vendors take, so one
 * project's burst must not take every connection: past the limit it gets 429 at once.
 */
export class ProjectSendSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perProject: number) {}

  async run<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const held = this.inFlight.get(projectId) ?? 0;
    if (held >= this.perProject) {
      throw new AppError('RATE_LIMITED', `This project already has ${this.perProject} sends in progress`, {
        headers: { 'Retry-After': '1' },
      });
    }
    this.inFlight.set(projectId, held + 1);
    try {
      return await work();
    } finally {
      const left = (this.inFlight.get(projectId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(projectId, left);
      else this.inFlight.delete(projectId);
    }
  }
}
