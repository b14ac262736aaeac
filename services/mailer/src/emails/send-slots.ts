import { AppError, ProjectSlots } from '@platform/tenancy';

/**
 * Sends of one project, and of all projects, in flight on this replica. A send holds vendor
 * calls (and, under an Idempotency-Key, a pooled database connection) for as long as the
 * vendors take, so one project's burst must not take every connection, nor all projects'
 * sends together the whole pool: past either limit, 429 at once.
 */
export class ProjectSendSlots {
  private readonly slots: ProjectSlots;

  constructor(
    private readonly perProject: number,
    total?: number,
  ) {
    this.slots = new ProjectSlots({ perProject, total });
  }

  async run<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    const release = this.slots.tryAcquire(projectId);
    if (!release) {
      const mine = this.slots.holding(projectId) >= this.perProject;
      const message = mine
        ? `This project already has ${this.perProject} sends in progress`
        : 'Too many sends in progress at the moment; try again';
      throw new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': '1' } });
    }
    try {
      return await work();
    } finally {
      release();
    }
  }
}
