import { tenantOfRow } from '@platform/db';
import { withOutbox, type EventEnvelope } from '@platform/events';
import { startRecurringJob, type ServiceDeps, type StopFunction } from '@platform/runtime';
import { BATCH_EVENTS, type BatchWorkData } from '../batches/batch-events';
import { BatchRun, type BatchRunDeps } from './batch-run';
import { startBatch, takeStaleBatches } from './batch-work.repository';
import { ProjectLimiter } from './project-limiter';

/**
 * Consumes `llm.batch.submitted` / `llm.batch.resume` from the broker (prefetch = batches
 * worked on at once) and runs each batch slice. Every step is repeatable, so a redelivered
 * message, a second worker on the same batch, or a restart after a crash finishes the batch
 * with exactly one result per custom_id.
 */
export class BatchWorker {
  private stopping = false;
  private readonly runs = new Map<BatchRun, Promise<unknown>>();
  private readonly limiter: ProjectLimiter;
  private stopSweeps?: StopFunction;

  constructor(private readonly deps: BatchRunDeps & Pick<ServiceDeps, 'bus'>) {
    const { config } = deps;
    this.limiter = new ProjectLimiter(deps.db, deps.logger, {
      perProject: config.batchConcurrency,
      leaseMs: config.batchSlotLeaseMs,
      renewMs: Math.min(config.batchHeartbeatMs, config.batchSlotLeaseMs / 3),
    });
  }

  async start(): Promise<void> {
    this.limiter.start();
    await this.deps.bus.subscribe({
      queue: this.deps.config.batchQueue,
      topics: [BATCH_EVENTS.submitted, BATCH_EVENTS.resume],
      prefetch: this.deps.config.batchWorkerPrefetch,
      maxAttempts: 10,
      retryDelaysMs: [1_000, 5_000, 30_000],
      handler: (event) => this.handle(event as EventEnvelope<BatchWorkData>),
    });
    this.stopSweeps = startRecurringJob({
      name: 'batch sweep',
      intervalMs: this.deps.config.batchSweepIntervalMs,
      firstRunMs: this.deps.config.batchSweepIntervalMs,
      logger: this.deps.logger,
      run: () => this.sweep(),
    });
  }

  private async handle(event: EventEnvelope<BatchWorkData>): Promise<void> {
    // A stopping worker hands the message back (the broker redelivers it to another).
    if (this.stopping) throw new Error('batch worker is stopping');
    const batch = await startBatch(this.deps.db, event.data.batchId);
    if (!batch) return;
    const run = new BatchRun(this.deps, this.limiter, batch, () => this.stopping);
    const outcome = run.run();
    this.runs.set(
      run,
      outcome.catch(() => undefined),
    );
    try {
      if ((await outcome) === 'crashed') throw new Error('batch worker stopped');
    } finally {
      this.runs.delete(run);
    }
  }

  /** Re-queues batches whose worker went silent (a process that died without handing on). */
  async sweep(): Promise<number> {
    const stale = await withOutbox(this.deps.db, this.deps.relay, async (trx, outbox) => {
      const batches = await takeStaleBatches(trx, this.deps.config.batchStaleMs, 100);
      for (const batch of batches) {
        await outbox.write<BatchWorkData>({
          type: BATCH_EVENTS.resume,
          ...tenantOfRow(batch),
          data: { batchId: batch.id },
        });
      }
      return batches;
    });
    if (stale.length) {
      this.deps.logger.warn('stale batches re-queued', { batchIds: stale.map((b) => b.id) });
    }
    return stale.length;
  }

  /** Resolves once every batch run under way now has ended: its results stored, its unstarted items given back. */
  async runsEnded(): Promise<void> {
    await Promise.all(this.runs.values());
  }

  /** Clean stop: no new items; running ones end (bounded), are stored, the rest given back and re-queued. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.stopSweeps?.();
    // Runs waiting for a slot (perhaps held by another process) stop waiting.
    this.limiter.close();
    await this.runsEnded();
    await this.limiter.releaseAll().catch((error) =>
      // Not renewed any more, the leases run out on their own.
      this.deps.logger.warn('batch concurrency slots could not be given back', { error: String(error) }),
    );
  }

  /** Stops as a killed process would: abandons in-flight calls and writes nothing more. */
  async kill(): Promise<void> {
    this.stopping = true;
    // A sweep in flight ends on its own; none starts any more.
    void this.stopSweeps?.();
    this.limiter.abandon();
    for (const run of this.runs.keys()) run.crash();
    await Promise.all(this.runs.values());
  }
}
