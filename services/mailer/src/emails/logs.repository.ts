import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { TransportName } from '../transports/transport';
import type { EmailStatus } from './emails.model';

/** One provider's try at an email, kept inside the email's log row (oldest first). */
export interface SendAttempt {
  provider: TransportName;
  providerId: string | null;
  outcome: 'sent' | 'failed';
  /** What the vendor said (or that it did not answer); null when it took the email. */
  error: string | null;
  /** HTTP status of the vendor's refusal; null when it took the email or did not answer. */
  vendorStatus: number | null;
  /** When the provider was asked (ISO 8601). */
  at: string;
}

/** A row as stored: snake_case, read with an explicit column list. */
export interface LogRow {
  id: string;
  provider_id: string | null;
  provider: TransportName;
  source: string;
  to_email: string;
  from_email: string;
  subject: string;
  html: string | null;
  text: string | null;
  template_id: string | null;
  status: EmailStatus;
  vendor_message_id: string | null;
  error: string | null;
  category: 'transactional' | 'marketing';
  /** Why a `suppressed` email was not handed to any provider. */
  suppression_reason: string | null;
  attempts: SendAttempt[];
  sent_at: Date;
  updated_at: Date;
}

/** One email to record, as the send hands it over. */
export interface NewLog {
  providerId: string | null;
  provider: TransportName;
  source: string;
  to: string;
  from: string;
  subject: string;
  html: string | null;
  text: string | null;
  templateId: string | null;
  status: EmailStatus;
  vendorMessageId: string | null;
  error: string | null;
  category: LogRow['category'];
  suppressionReason: string | null;
  /** Every provider asked, the last one included; empty when none was. */
  attempts: SendAttempt[];
  eventId?: string | null;
}

const TABLE = 'email_logs';
const COLUMNS = [
  'id',
  'provider_id',
  'provider',
  'source',
  'to_email',
  'from_email',
  'subject',
  'html',
  'text',
  'template_id',
  'status',
  'vendor_message_id',
  'error',
  'category',
  'suppression_reason',
  'attempts',
  'sent_at',
  'updated_at',
] as const;

const NEWEST_FIRST = [
  { column: 'sent_at', order: 'desc' as const },
  { column: 'id', order: 'desc' as const },
];

/** Records one email (all its attempts). With an eventId that already has a row, nothing is written (undefined). */
export async function insertLog(db: Knex, tenant: Tenant, log: NewLog): Promise<LogRow | undefined> {
  const [row] = await tenantTable(db, tenant, TABLE)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      provider_id: log.providerId,
      provider: log.provider,
      source: log.source,
      to_email: log.to,
      from_email: log.from,
      subject: log.subject,
      html: log.html,
      text: log.text,
      template_id: log.templateId,
      status: log.status,
      vendor_message_id: log.vendorMessageId,
      error: log.error,
      category: log.category,
      suppression_reason: log.suppressionReason,
      attempts: JSON.stringify(log.attempts),
      event_id: log.eventId ?? null,
    })
    .onConflict('event_id')
    .ignore()
    .returning<LogRow[]>([...COLUMNS]);
  return row;
}

export async function listLogs(
  db: Knex,
  tenant: Tenant,
  page: { limit: number; offset: number; status?: EmailStatus },
): Promise<{ rows: LogRow[]; total: number }> {
  const filtered = () => {
    const q = tenantTable<LogRow>(db, tenant, TABLE);
    return page.status ? q.where({ status: page.status }) : q;
  };
  const [rows, [{ count }]] = await Promise.all([
    filtered().orderBy(NEWEST_FIRST).limit(page.limit).offset(page.offset).select<LogRow[]>(COLUMNS),
    filtered().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export async function listLogsForRecipient(
  db: Knex,
  tenant: Tenant,
  email: string,
  page: { limit: number; offset: number },
): Promise<LogRow[]> {
  return tenantTable<LogRow>(db, tenant, TABLE)
    .whereRaw('lower(to_email) = ?', [email.toLowerCase()])
    .orderBy(NEWEST_FIRST)
    .limit(page.limit)
    .offset(page.offset)
    .select<LogRow[]>(COLUMNS);
}

export async function countByStatus(db: Knex, tenant: Tenant): Promise<Record<string, number>> {
  const rows = await tenantTable<LogRow>(db, tenant, TABLE)
    .groupBy('status')
    .select('status')
    .count<{ status: string; count: string }[]>({ count: '*' });
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}

/** The project's emails sent in [start, end), counted per UTC day and current status. */
export async function countByDayAndStatus(
  db: Knex,
  tenant: Tenant,
  range: { start: Date; end: Date },
): Promise<{ day: string; status: string; count: string }[]> {
  return tenantTable<LogRow>(db, tenant, TABLE)
    .where('sent_at', '>=', range.start)
    .andWhere('sent_at', '<', range.end)
    .groupByRaw('1, 2')
    .orderByRaw('1, 2')
    .select<
      { day: string; status: string; count: string }[]
    >(db.raw(`to_char(sent_at at time zone 'UTC', 'YYYY-MM-DD') as day`), 'status', db.raw('count(*) as count'));
}

/**
 * Moves the logs of one provider whose vendor message id is among `vendorIds` to `status`,
 * but only from the states it may follow (a late "delivered" does not undo a bounce).
 */
export async function updateStatusByVendorId(
  db: Knex,
  tenant: Tenant,
  providerId: string,
  vendorIds: string[],
  status: EmailStatus,
  from: EmailStatus[],
): Promise<number> {
  if (!vendorIds.length || !from.length) return 0;
  return tenantTable<LogRow>(db, tenant, TABLE)
    .where({ provider_id: providerId })
    .whereIn('vendor_message_id', vendorIds)
    .whereIn('status', from)
    .update({ status, updated_at: db.fn.now() });
}
