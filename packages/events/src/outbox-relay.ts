import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import type { EventBus } from './bus';
import { SECRET_BEARING_EVENTS } from './contracts';
import type { EventEnvelope } from './envelope';
import { publishTraced } from './event-tracing';

export interface RelayOptions {
  pollIntervalMs?: number;
  batchSize?: number;
  /** Published rows are deleted after this long. */
  retentionMs?: number;
}

/**
 * Moves outbox rows to the bus. Rows are claimed with SKIP LOCKED so several replicas can
 * relay at once without publishing a row twice; a row is marked sent only after the broker
 * confirmed it, and a failed publish is retried with backoff (so nothing written while the
 * broker was down is lost).
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;
  private lastCleanup = 0;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly retentionMs: number;

  constructor(
    private readonly db: Knex,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: RelayOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.batchSize = options.batchSize ?? 100;
    this.retentionMs = options.retentionMs ?? 7 * 24 * 3600_000;
  }

  start(): void {
    this.stopped = false;
    this.kick();
  }

  /** Relay now rather than at the next poll (called after a commit that wrote events). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.relayAll()
      .catch((error) => {
        this.logger.warn('outbox relay failed', { error: String(error) });
      })
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.kick();
        } else {
          this.timer = setTimeout(() => this.kick(), this.pollIntervalMs);
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Publishes everything due; resolves when the outbox has nothing more to send right now. */
  async relayAll(): Promise<void> {
    while ((await this.relayBatch()) === this.batchSize) {
      /* keep going while full batches come back */
    }
    if (Date.now() - this.lastCleanup > 3600_000) {
      this.lastCleanup = Date.now();
      await this.db('outbox')
        .whereNotNull('published_at')
        .where('published_at', '<', new Date(Date.now() - this.retentionMs))
        .delete();
    }
  }

  /** Whether a row is due: one read on the pending index, without a transaction. */
  private async anyDue(): Promise<boolean> {
    const row: unknown = await this.db('outbox')
      .whereNull('published_at')
      .where('next_attempt_at', '<=', this.db.fn.now())
      .first(this.db.raw('1'));
    return row !== undefined;
  }

  private async relayBatch(): Promise<number> {
    if (this.bus.status() === 'down') return 0;
    // Most polls find nothing due. Checked first, so an idle relay opens no transaction: each one
    // is three round trips, and knex's per-transaction objects outlive young-generation GCs.
    if (!(await this.anyDue())) return 0;
    return this.db.transaction(async (trx) => {
      const rows: { id: string; type: string; envelope: EventEnvelope; attempts: number }[] = await trx('outbox')
        .whereNull('published_at')
        .where('next_attempt_at', '<=', trx.fn.now())
        .orderBy('created_at')
        .limit(this.batchSize)
        .forUpdate()
        .skipLocked()
        .select('id', 'type', 'envelope', 'attempts');
      const sent: string[] = [];
      const purge: string[] = [];
      for (const row of rows) {
        try {
          await publishTraced(row.envelope, () => this.bus.publish(row.envelope));
          (SECRET_BEARING_EVENTS.has(row.type) ? purge : sent).push(row.id);
        } catch (error) {
          const delayMs = Math.min(60_000, 500 * 2 ** row.attempts);
          await trx('outbox')
            .where({ id: row.id })
            .update({ attempts: row.attempts + 1, next_attempt_at: new Date(Date.now() + delayMs) });
          this.logger.warn('event publish failed, will retry', { eventId: row.id, error: String(error) });
          break;
        }
      }
      if (sent.length) await trx('outbox').whereIn('id', sent).update({ published_at: trx.fn.now() });
      if (purge.length) await trx('outbox').whereIn('id', purge).delete();
      return sent.length + purge.length === rows.length ? rows.length : 0;
    });
  }
}
