import type { Knex } from 'knex';
import { tenantKey } from '@platform/db';
import type { Logger } from '@platform/http';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Tenant } from '@platform/tenancy';
import { insertLogs } from './usage.repository';
import type { CompletionLogEntry } from './usage.types';

interface PendingLog {
  tenant: Tenant;
  entry: CompletionLogEntry;
  /** Postgres refused this row: it was dropped and is not tried again. */
  refused?: boolean;
}

export interface CompletionLogWriterOptions {
  /** The longest a log waits before its group is written. */
  flushMs: number;
  /**
   * Rows kept while the database cannot take them. Beyond it the oldest are dropped, with an
   * error log and the `droppedTotal` counter: a long outage must not grow the process's memory
   * without end (at a few hundred bytes a row, 50,000 rows are some 25 MB).
   */
  maxBuffered: number;
  /** Rows per insert. */
  groupSize?: number;
  /** First wait after a failed insert; it doubles up to `retryMaxMs`. */
  retryMinMs?: number;
  retryMaxMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Postgres refused the row itself (a data exception or a constraint): retrying it cannot help. */
function isRefusedRow(error: unknown): boolean {
  return /^2[23]/.test(String((error as { code?: unknown })?.code ?? ''));
}

/**
 * Writes completion logs in small groups, off the request's path: a completion does not wait
 * for its log row, and many rows share one insert, written every `flushMs` (a recurring job, from
 * the first log to `close`) or as soon as a group is full. A log waits at most `flushMs`. Rows the
 * database cannot take are kept (oldest first) and retried with backoff; the insert ignores an
 * id already stored, so a retry after a lost reply writes each log once.
 */
export class CompletionLogWriter {
  private queue: PendingLog[] = [];
  /** Rows taken off the queue by the insert under way. */
  private storing = 0;
  private stopWrites?: StopFunction;
  private draining?: Promise<void>;
  /** Failed attempts in a row; above zero, `retryAt` (not new writes) decides when to try again. */
  private failures = 0;
  /** After a failed attempt: no write before this time (`performance.now()`). */
  private retryAt = 0;
  private dropped = 0;
  private droppedUnreported = 0;
  private lastDropReport = 0;
  private readonly groupSize: number;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly options: CompletionLogWriterOptions,
  ) {
    this.groupSize = options.groupSize ?? 200;
    this.retryMinMs = options.retryMinMs ?? 50;
    this.retryMaxMs = options.retryMaxMs ?? 5_000;
  }

  /** Rows not stored yet. */
  get pending(): number {
    return this.queue.length + this.storing;
  }

  /** Attempts that failed in a row since rows were last stored (0 while writes succeed). */
  get failedAttempts(): number {
    return this.failures;
  }

  /** Rows lost since start: dropped from a full buffer, refused by Postgres, or left at shutdown. */
  get droppedTotal(): number {
    return this.dropped;
  }

  write(tenant: Tenant, entry: CompletionLogEntry): void {
    this.queue.push({ tenant, entry });
    this.enforceBound();
    this.stopWrites ??= startRecurringJob({
      name: 'completion log writes',
      intervalMs: this.options.flushMs,
      firstRunMs: this.options.flushMs,
      logger: this.logger,
      run: () => this.writeDue(),
    });
    if (this.failures === 0 && this.queue.length >= this.groupSize) void this.flush();
  }

  /** A run of the job: what is buffered, unless a failed attempt still waits for its retry. */
  private async writeDue(): Promise<void> {
    if (!this.queue.length || performance.now() < this.retryAt) return;
    await this.flush();
  }

  /** Tries once to write everything buffered; resolves when stored, or when the rows are kept for a retry. */
  flush(): Promise<void> {
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  /**
   * Before a read of the project's logs: when this replica holds some of them, what it holds is
   * written first, so that a client sees its own requests at once, not up to `flushMs` later. A
   * project with nothing waiting forces no write of the others' rows. Not while the writer backs
   * off after a failure: reads must not turn into retries at the rate they come.
   */
  async catchUp(tenant: Tenant): Promise<void> {
    if (this.failures > 0) return;
    const key = tenantKey(tenant);
    if (this.storing || this.queue.some((row) => tenantKey(row.tenant) === key)) await this.flush();
  }

  /**
   * At shutdown (the HTTP server has drained, so no more rows come): keeps trying with the same
   * backoff until every row is stored or `graceMs` has passed; what is left is reported lost.
   */
  async close(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    await this.stopWrites?.();
    this.stopWrites = undefined;
    await this.flush();
    while (this.pending && Date.now() < deadline) {
      await sleep(Math.min(this.backoffMs(), deadline - Date.now()));
      await this.flush();
    }
    if (this.queue.length)
      this.drop(this.queue.splice(0), 'completion logs lost at shutdown: the database did not come back in time');
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const group = this.queue.splice(0, this.groupSize);
      this.storing = group.length;
      try {
        await this.store(group);
        this.failures = 0;
      } catch (error) {
        this.storing = 0; // before enforceBound, which counts it as pending
        this.queue.unshift(...group.filter((row) => !row.refused));
        this.enforceBound();
        this.logger.warn('completion logs not written yet; kept for a retry', {
          pending: this.queue.length,
          attempt: this.failures + 1,
          error: String(error),
        });
        this.retryLater();
        return;
      } finally {
        this.storing = 0;
      }
    }
  }

  /**
   * Inserts a group, one statement per project. Throws when the database cannot be reached: the
   * group is tried again (rows stored meanwhile are ignored by id, refused ones left out).
   */
  private async store(group: PendingLog[]): Promise<void> {
    const byProject = new Map<string, PendingLog[]>();
    for (const row of group) {
      const key = tenantKey(row.tenant);
      const rows = byProject.get(key);
      if (rows) rows.push(row);
      else byProject.set(key, [row]);
    }
    for (const rows of byProject.values()) {
      try {
        await insertLogs(
          this.db,
          rows[0].tenant,
          rows.map((r) => r.entry),
        );
      } catch (error) {
        if (!isRefusedRow(error)) throw error;
        await this.storeOneByOne(rows);
      }
    }
  }

  /** A group Postgres refused: each row alone, so one bad row does not hold back (or lose) the others. */
  private async storeOneByOne(rows: PendingLog[]): Promise<void> {
    for (const row of rows) {
      try {
        await insertLogs(this.db, row.tenant, [row.entry]);
      } catch (error) {
        if (!isRefusedRow(error)) throw error;
        row.refused = true;
        this.drop([row], 'completion log refused by the database', { id: row.entry.id, error: String(error) });
      }
    }
  }

  private backoffMs(): number {
    const base = Math.min(this.retryMaxMs, this.retryMinMs * 2 ** Math.max(0, this.failures - 1));
    // Jitter, so replicas that lost the database together do not retry in step.
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private retryLater(): void {
    this.failures++;
    this.reportDrops(true);
    this.retryAt = performance.now() + this.backoffMs();
  }

  /** Past `maxBuffered`: the oldest rows go, so the newest (most useful to an operator) are kept. */
  private enforceBound(): void {
    const excess = this.pending - this.options.maxBuffered;
    if (excess <= 0) return;
    const lost = this.queue.splice(0, Math.min(excess, this.queue.length));
    this.dropped += lost.length;
    this.droppedUnreported += lost.length;
    this.reportDrops(false);
  }

  /** One error line per second at most while the buffer overflows, not one per request. */
  private reportDrops(force: boolean): void {
    if (!this.droppedUnreported || (!force && Date.now() - this.lastDropReport < 1_000)) return;
    this.logger.error('completion log buffer full: oldest logs dropped', {
      count: this.droppedUnreported,
      droppedTotal: this.dropped,
      maxBuffered: this.options.maxBuffered,
    });
    this.droppedUnreported = 0;
    this.lastDropReport = Date.now();
  }

  private drop(rows: PendingLog[], message: string, meta: Record<string, unknown> = {}): void {
    this.dropped += rows.length;
    this.logger.error(message, { ...meta, count: rows.length, droppedTotal: this.dropped });
  }
}
