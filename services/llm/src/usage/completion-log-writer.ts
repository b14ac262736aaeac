import type { Knex } from 'knex';
import type { Logger, Tenant } from '@platform/tenancy';
import { insertLogs } from './usage.repository';
import type { CompletionLogEntry } from './usage.types';

/**
 * Writes completion logs in small groups, off the request's path: a completion does not wait
 * for its log row, and many rows share one insert. A log waits at most `flushMs`.
 */
export class CompletionLogWriter {
  private buffer: { tenant: Tenant; entry: CompletionLogEntry }[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly flushMs: number,
    private readonly maxBuffer = 200,
  ) {}

  write(tenant: Tenant, entry: CompletionLogEntry): void {
    this.buffer.push({ tenant, entry });
    if (this.buffer.length >= this.maxBuffer) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered; resolves when it is stored (or the failure is logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(() => this.store(pending));
    return this.flushing;
  }

  private async store(pending: { tenant: Tenant; entry: CompletionLogEntry }[]): Promise<void> {
    if (!pending.length) return;
    const groups = new Map<string, { tenant: Tenant; entries: CompletionLogEntry[] }>();
    for (const { tenant, entry } of pending) {
      const key = `${tenant.tenantId}/${tenant.projectId}`;
      const group = groups.get(key) ?? { tenant, entries: [] };
      group.entries.push(entry);
      groups.set(key, group);
    }
    for (const { tenant, entries } of groups.values()) {
      await insertLogs(this.db, tenant, entries).catch((error) =>
        this.logger.error('completion logs could not be written', { count: entries.length, error: String(error) }),
      );
    }
  }
}
