import type { Knex } from 'knex';
import { errors } from '@platform/tenancy';
import type { AuditAct, AuditContext, AuditFilters } from './audit.model';
import { toAuditEntry, type AuditEntry } from './audit.mapper';
import * as repo from './audit.repository';

/** Records one act of the control plane. Every change made through the console or the command line passes here. */
export async function record(db: Knex, context: AuditContext, act: AuditAct): Promise<void> {
  await repo.insertAuditEntry(db, context, act);
}

const encodeCursor = (seq: string) => Buffer.from(`a:${seq}`).toString('base64url');

function decodeCursor(cursor: string): string {
  const match = /^a:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw errors.validation('Invalid cursor', [{ path: 'cursor', message: 'invalid cursor' }]);
  return match[1];
}

export async function listAudit(
  db: Knex,
  tenantId: string,
  filters: AuditFilters,
  page: { limit: number; cursor?: string },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const rows = await repo.listAuditEntries(db, tenantId, filters, {
    limit: page.limit + 1,
    beforeSeq: page.cursor ? decodeCursor(page.cursor) : undefined,
  });
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  return {
    entries: shown.map(toAuditEntry),
    nextCursor: more ? encodeCursor(shown[shown.length - 1].seq) : null,
  };
}

/** The entries of a time range, oldest first, read a chunk at a time so a long range never sits in memory. */
export async function* exportAudit(db: Knex, tenantId: string, filters: AuditFilters): AsyncGenerator<AuditEntry> {
  let after = '0';
  for (;;) {
    const rows = await repo.auditEntriesAfter(db, tenantId, filters, after, 500);
    for (const row of rows) yield toAuditEntry(row);
    if (rows.length < 500) return;
    after = rows[rows.length - 1].seq;
  }
}

/** Removes entries older than the retention period (every tenant's). */
export async function pruneAudit(db: Knex, retentionDays: number, now = new Date()): Promise<number> {
  return repo.pruneAuditEntries(db, new Date(now.getTime() - retentionDays * 86_400_000));
}
