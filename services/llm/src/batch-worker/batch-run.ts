import { randomUUID } from 'node:crypto';
import { tenantOfRow } from '@platform/db';
import { withOutbox } from '@platform/events';
import { startRecurringJob, type ServiceDeps, type StopFunction } from '@platform/runtime';
import { AppError, type Tenant } from '@platform/tenancy';
import { DEFAULT_TEMPERATURE, runCompletion, type CompletionOutcome } from '../completions/completion-runner';
import type { CompletionRequest } from '../completions/completions.schemas';
import type { LlmConfig } from '../config';
import { admitSpend, settleSpend, type SpendLimits } from '../limits/spend';
import { vendorClientFor, type VendorAccess } from '../providers/providers.service';
import { NO_USAGE } from '../vendors/sdk-options';
import { insertLogs } from '../usage/usage.service';
import type { CompletionLogEntry } from '../usage/usage.types';
import { BATCH_EVENTS, type BatchFinishedData, type BatchWorkData } from '../batches/batch-events';
import { toBatchFinishedData } from '../batches/batches.mapper';
import type { BatchRow } from '../batches/batches.model';
import {
  batchStatus,
  claimItems,
  finishBatch,
  heartbeat,
  openItemCount,
  releaseItems,
  saveResults,
  type ClaimedItemRow,
  type ItemResult,
} from './batch-work.repository';
import type { ProjectLimiter } from './project-limiter';

/** What a batch run takes: the database and its relay, the settings, the vendors and the project limits. */
export interface BatchRunDeps extends Pick<ServiceDeps, 'db' | 'relay' | 'logger'> {
  config: LlmConfig;
  vendors: VendorAccess;
  limits: SpendLimits;
}

export type RunOutcome = 'finished' | 'handed-on' | 'gone' | 'crashed';

const FLUSH_SIZE = 100;
const FLUSH_INTERVAL_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms` unless the signal ends the wait first; whether the full wait passed. */
function waitUnlessStopped(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    function stop() {
      clearTimeout(timer);
      resolve(false);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}

interface Finished {
  result: ItemResult;
  log: CompletionLogEntry;
}

/**
 * One worker's slice of work on one batch: claims items in chunks, runs them with the
 * project's concurrency bound, and writes results in groups (each item's result once; logs
 * and counters only for results actually written). Ends when the batch is done, cancelled,
 * the slice is over, or the worker stops.
 */
export class BatchRun {
  private readonly tenant: Tenant;
  private readonly held = new Set<string>();
  private buffer: Finished[] = [];
  private readonly inflight = new Set<Promise<void>>();
  /** Aborted when the run crashes or its grace ends: every vendor call of the run stops. */
  private readonly controller = new AbortController();
  /**
   * One controller per vendor call. The SDKs add an abort listener to the signal of every call
   * and never remove it: one signal shared by the run would gather a listener per item, which
   * leaks and makes each call slower than the last (a listener add scans the ones already there).
   */
  private readonly calls = new Set<AbortController>();
  /** Ends a wait for a concurrency slot: cancelled, crashed, or the slice is over. */
  private readonly stopWaiting = new AbortController();
  private flushing: Promise<void> = Promise.resolve();
  private crashed = false;
  private cancelled = false;

  constructor(
    private readonly deps: BatchRunDeps,
    private readonly limiter: ProjectLimiter,
    private readonly batch: BatchRow,
    private readonly isStopping: () => boolean,
  ) {
    this.tenant = tenantOfRow(batch);
    this.controller.signal.addEventListener('abort', () => {
      for (const call of this.calls) call.abort();
    });
  }

  /** Simulates (or follows) a dying process: in-flight calls are abandoned, nothing more is written. */
  crash(): void {
    this.crashed = true;
    this.buffer = [];
    this.stopWaiting.abort();
    this.controller.abort();
  }

  async run(): Promise<RunOutcome> {
    const { config } = this.deps;
    const deadline = Date.now() + config.batchSliceMs;
    const timers = this.startTimers();
    // Slots may be held by other processes for long: a wait does not outlast the slice.
    const sliceEnd = setTimeout(() => this.stopWaiting.abort(), config.batchSliceMs);
    // Claimed items wait for a slot; claiming at most two rounds ahead keeps them few.
    const claimSize = Math.min(config.batchClaimSize, config.batchConcurrency * 2);
    const claim = () => {
      const claimed = claimItems(this.deps.db, this.tenant, this.batch.id, claimSize, config.batchStaleMs).then(
        (items) => {
          for (const item of items) this.held.add(item.custom_id);
          return items;
        },
      );
      claimed.catch(() => undefined);
      return claimed;
    };
    let ahead: Promise<ClaimedItemRow[]> | undefined;
    try {
      while (!this.halted() && Date.now() < deadline) {
        const items = await (ahead ?? claim());
        ahead = undefined;
        if (this.crashed) return 'crashed';
        if (!items.length) {
          const idle = await this.whenIdle();
          if (idle) return idle;
          continue;
        }
        // A full chunk means more may wait: claim the next one while this one starts, so no slot idles.
        if (items.length === claimSize) ahead = claim();
        for (const item of items) {
          if (this.halted()) break;
          const release = await this.limiter.acquire(this.tenant, this.stopWaiting.signal);
          if (!release || this.halted()) {
            release?.();
            break;
          }
          const task: Promise<void> = this.runItem(item)
            .catch((error) => this.failUnexpectedly(item, error))
            .finally(() => {
              release();
              this.inflight.delete(task);
            });
          this.inflight.add(task);
        }
      }
      // Items claimed ahead are held like the rest: given back by handOn.
      if (ahead) await ahead.catch(() => []);
      return await this.handOn();
    } finally {
      clearTimeout(sliceEnd);
      const stopped = Promise.all(timers.map((stop) => stop()));
      // A crashed run, as a dying process, does not wait for a heartbeat or a write in flight.
      if (!this.crashed) await stopped;
    }
  }

  /**
   * The run's recurring work, each a job of its own: the heartbeat that keeps its batch and
   * claims alive, the writer of buffered results, and the watch that notices a cancel (which
   * must stop new items soon, even those already claimed).
   */
  private startTimers(): StopFunction[] {
    const { config, db, logger } = this.deps;
    const batchId = this.batch.id;
    const every = (name: string, intervalMs: number, run: () => Promise<unknown>) =>
      startRecurringJob({ name, intervalMs, firstRunMs: intervalMs, logger, run });
    return [
      every('batch heartbeat', config.batchHeartbeatMs, async () => {
        if (this.crashed) return;
        await heartbeat(db, this.tenant, batchId, [...this.held]).catch((error) =>
          logger.warn('batch heartbeat failed', { batchId, error: String(error) }),
        );
      }),
      every('batch result writes', FLUSH_INTERVAL_MS, () => this.flush()),
      every('batch cancel watch', Math.min(config.batchHeartbeatMs, 500), async () => {
        const status = await batchStatus(db, this.tenant, batchId).catch(() => undefined);
        if (status !== undefined && status !== 'processing') {
          this.cancelled = true;
          this.stopWaiting.abort();
        }
      }),
    ];
  }

  private halted(): boolean {
    return this.cancelled || this.isStopping() || this.stopWaiting.signal.aborted;
  }

  /** Nothing left to claim: finish the batch, notice it was cancelled, or wait for items another worker holds. */
  private async whenIdle(): Promise<RunOutcome | null> {
    await Promise.all(this.inflight);
    await this.flush();
    if (this.crashed) return 'crashed';
    if ((await openItemCount(this.deps.db, this.tenant, this.batch.id)) === 0) return this.finish();
    if ((await batchStatus(this.deps.db, this.tenant, this.batch.id)) !== 'processing') return 'gone';
    // Items held by another worker: they finish, or their claims go stale and are taken here.
    await sleep(Math.min(1_000, Math.max(20, this.deps.config.batchStaleMs / 4)));
    return null;
  }

  private async finish(): Promise<RunOutcome> {
    await withOutbox(this.deps.db, this.deps.relay, async (trx, outbox) => {
      const batch = await finishBatch(trx, this.tenant, this.batch.id);
      if (batch) {
        await outbox.write<BatchFinishedData>({
          type: BATCH_EVENTS.finished,
          ...this.tenant,
          data: toBatchFinishedData(batch),
        });
      }
    });
    return 'finished';
  }

  /** Stopping or out of time: let running items end (bounded), store them, give back the rest, queue the batch again. */
  private async handOn(): Promise<RunOutcome> {
    if (this.crashed) return 'crashed';
    if (this.cancelled) {
      // Calls already running finish and are stored; items not started are left alone.
      await Promise.all(this.inflight);
      await this.flush();
      await releaseItems(this.deps.db, this.tenant, this.batch.id, [...this.held]);
      return 'gone';
    }
    let graceTimer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => {
      graceTimer = setTimeout(resolve, Math.min(this.deps.config.vendorTimeoutMs, 10_000));
    });
    await Promise.race([Promise.all(this.inflight), grace]);
    clearTimeout(graceTimer);
    this.controller.abort();
    await Promise.all(this.inflight);
    await this.flush();
    if (this.crashed) return 'crashed';
    await releaseItems(this.deps.db, this.tenant, this.batch.id, [...this.held]);
    await withOutbox(this.deps.db, this.deps.relay, (_trx, outbox) =>
      outbox.write<BatchWorkData>({ type: BATCH_EVENTS.resume, ...this.tenant, data: { batchId: this.batch.id } }),
    );
    return 'handed-on';
  }

  private async runItem(item: ClaimedItemRow): Promise<void> {
    const client = await vendorClientFor(this.deps.vendors, this.tenant, item.provider);
    if (!client) {
      this.pushFailure(item, `No credentials configured for ${item.provider}`);
      return;
    }
    const input = {
      model: item.model,
      messages: item.messages,
      max_tokens: item.max_tokens ?? undefined,
      temperature: item.temperature ?? DEFAULT_TEMPERATURE,
    };
    let reservedUsd: number;
    try {
      const admitted = await this.admit(input);
      if (admitted === undefined) return; // stopping: the item stays claimed and is handed on
      reservedUsd = admitted;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.pushFailure(item, error.message);
      return;
    }
    const call = new AbortController();
    if (this.controller.signal.aborted) call.abort();
    this.calls.add(call);
    let outcome: CompletionOutcome | undefined;
    try {
      outcome = await runCompletion(client, input, this.batch.id, call.signal);
    } finally {
      this.calls.delete(call);
      settleSpend(this.deps.limits, this.tenant, reservedUsd, outcome?.log);
    }
    // An abandoned call leaves its item claimed: given back on a clean stop, taken over when stale.
    if (!outcome.ok && outcome.failure.kind === 'aborted') return;
    this.push({
      result: outcome.ok
        ? {
            customId: item.custom_id,
            status: 'succeeded',
            completion: outcome.result.completion,
            model: outcome.result.model,
            usage: outcome.result.usage,
            error: null,
          }
        : {
            customId: item.custom_id,
            status: 'failed',
            completion: null,
            model: item.model,
            usage: outcome.log.usage,
            error: outcome.failure.message,
          },
      log: outcome.log,
    });
  }

  /**
   * Admits the item under the project's limits before its vendor call: a spent budget (or a model
   * without a price under a budget) fails the item; a rate limit makes it wait for the next
   * minute, as long as the run goes on (undefined when it stops).
   */
  private async admit(input: CompletionRequest): Promise<number | undefined> {
    for (;;) {
      try {
        return await admitSpend(this.deps.limits, this.tenant, input);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'RATE_LIMITED') throw error;
        const waitMs = Number(error.headers?.['Retry-After'] ?? 1) * 1000;
        if (!(await waitUnlessStopped(waitMs, this.stopWaiting.signal))) return undefined;
      }
    }
  }

  /** Anything but a vendor answer (a broken stored key, say) fails the item rather than the worker. */
  private failUnexpectedly(item: ClaimedItemRow, error: unknown): void {
    this.deps.logger.error('batch item could not run', { batchId: this.batch.id, customId: item.custom_id, error });
    this.pushFailure(item, 'The item could not be run');
  }

  /** A failed result (and its log) for an item that never reached the vendor. */
  private pushFailure(item: ClaimedItemRow, error: string): void {
    const usage = NO_USAGE;
    this.push({
      result: { customId: item.custom_id, status: 'failed', completion: null, model: item.model, usage, error },
      log: {
        id: randomUUID(),
        model: item.model,
        provider: item.provider,
        status: 'error',
        usage,
        latencyMs: 0,
        error,
        batchId: this.batch.id,
        createdAt: new Date(),
      },
    });
  }

  private push(finished: Finished): void {
    if (this.crashed) return;
    this.buffer.push(finished);
    if (this.buffer.length >= FLUSH_SIZE) void this.flush();
  }

  /** Writes buffered results in one transaction; serialised so groups never interleave. */
  private flush(): Promise<void> {
    this.flushing = this.flushing
      .then(() => this.store())
      .catch((error) => {
        this.deps.logger.warn('batch results could not be written yet', {
          batchId: this.batch.id,
          error: String(error),
        });
      });
    return this.flushing;
  }

  private async store(): Promise<void> {
    if (this.crashed || !this.buffer.length) return;
    const group = this.buffer;
    this.buffer = [];
    try {
      await this.deps.db.transaction(async (trx) => {
        const written = await saveResults(
          trx,
          this.tenant,
          this.batch.id,
          group.map((f) => f.result),
        );
        await insertLogs(
          trx,
          this.tenant,
          group.filter((f) => written.has(f.result.customId)).map((f) => f.log),
        );
      });
    } catch (error) {
      if (!this.crashed) this.buffer.unshift(...group);
      throw error;
    }
    for (const f of group) this.held.delete(f.result.customId);
  }
}
