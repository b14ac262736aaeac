import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '../shared';
import type { TransportName } from '../transports/transport';

export type EmailStatus = 'sent' | 'delivered' | 'bounced' | 'failed' | 'suppressed';
export const EMAIL_STATUSES: EmailStatus[] = ['sent', 'delivered', 'bounced', 'failed', 'suppressed'];

export interface LogRow {
  id: string;
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
  category: 'transactional' | 'marketing';
  /** Why a `suppressed` email was not handed to any provider. */
  suppressionReason: string | null;
  sentAt: Date;
  updatedAt: Date;
}

export type NewLog = Omit<LogRow, 'id' | 'sentAt' | 'updatedAt'> & { eventId?: string | null };

const COLUMNS = [
  'id',
  'provider_id as providerId',
  'provider',
  'source',
  'to_email as to',
  'from_email as from',
  'subject',
  'html',
  'text',
  'template_id as templateId',
  'status',
  'vendor_message_id as vendorMessageId',
  'error',
  'category',
  'suppression_reason as suppressionReason',
  'sent_at as sentAt',
  'updated_at as updatedAt',
];

const scoped = (db: Knex, tenant: Tenant) =>
  db('email_logs').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

const NEWEST_FIRST = [
  { column: 'sent_at', order: 'desc' as const },
  { column: 'id', order: 'desc' as const },
];

/** Records one attempt. With an eventId that already has a row, nothing is written (undefined). */
export async function insertLog(db: Knex, tenant: Tenant, log: NewLog): Promise<LogRow | undefined> {
  const [row] = await db('email_logs')
    .insert({
      id: randomUUID(),
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
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
      event_id: log.eventId ?? null,
    })
    .onConflict('event_id')
    .ignore()
    .returning(COLUMNS);
  return row;
}

export async function listLogs(
  db: Knex,
  tenant: Tenant,
  page: { limit: number; offset: number; status?: EmailStatus },
): Promise<{ rows: LogRow[]; total: number }> {
  const filtered = () => (page.status ? scoped(db, tenant).where({ status: page.status }) : scoped(db, tenant));
  const [rows, [{ count }]] = await Promise.all([
    filtered().orderBy(NEWEST_FIRST).limit(page.limit).offset(page.offset).select(COLUMNS),
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
  return scoped(db, tenant)
    .whereRaw('lower(to_email) = ?', [email.toLowerCase()])
    .orderBy(NEWEST_FIRST)
    .limit(page.limit)
    .offset(page.offset)
    .select(COLUMNS);
}

export async function countByStatus(db: Knex, tenant: Tenant): Promise<Record<string, number>> {
  const rows: { status: string; count: string }[] = await scoped(db, tenant)
    .groupBy('status')
    .select('status')
    .count({ count: '*' });
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
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
  return scoped(db, tenant)
    .where({ provider_id: providerId })
    .whereIn('vendor_message_id', vendorIds)
    .whereIn('status', from)
    .update({ status, updated_at: db.fn.now() });
}
