import { AppError, ProjectSlots } from '@platform/tenancy';

/**
 * Sends of one project in flight on this replica. A send holds vendor calls (and, under an
 * Idempotency-Key, a pooled database connection) for as long as the vendors take, so one
 * project's burst must not take every connection: past the limit it gets 429 at once.
 */
export class ProjectSendSlots {
  private readonly slots: ProjectSlots;

  constructor(private readonly perProject: number) {
    this.slots = new ProjectSlots({ perProject });
  }

  async run<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const release = this.slots.tryAcquire(projectId);
    if (!release) {
      throw new AppError('RATE_LIMITED', `This project already has ${this.perProject} sends in progress`, {
        headers: { 'Retry-After': '1' },
      });
    }
    try {
      return await work();
    } finally {
      release();
    }
  }
}
