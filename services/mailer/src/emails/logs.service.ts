import type { Knex } from 'knex';
import { toIso } from '@platform/tenancy';
import type { Tenant } from '../shared';
import * as repo from './logs.repository';

export interface EmailLog {
  id: string;
  messageId: string;
  to: string;
  from: string;
  subject: string;
  status: repo.EmailStatus;
  provider: string;
  providerId: string | null;
  vendorMessageId: string | null;
  templateId: string | null;
  source: string;
  error: string | null;
  category: repo.LogRow['category'];
  suppressionReason: string | null;
  html: string | null;
  text: string | null;
  sentAt: string;
  updatedAt: string;
}

/** The one place a log row becomes its API shape. `messageId` is the id `send` returned. */
export function toLog(row: repo.LogRow): EmailLog {
  return {
    id: row.id,
    messageId: row.id,
    to: row.to,
    from: row.from,
    subject: row.subject,
    status: row.status,
    provider: row.provider,
    providerId: row.providerId,
    vendorMessageId: row.vendorMessageId,
    templateId: row.templateId,
    source: row.source,
    error: row.error,
    category: row.category,
    suppressionReason: row.suppressionReason,
    html: row.html,
    text: row.text,
    sentAt: toIso(row.sentAt)!,
    updatedAt: toIso(row.updatedAt)!,
  };
}

export class LogsService {
  constructor(private readonly db: Knex) {}

  async list(tenant: Tenant, query: { limit: number; offset: number; status?: repo.EmailStatus }) {
    const { rows, total } = await repo.listLogs(this.db, tenant, query);
    return { logs: rows.map(toLog), total, limit: query.limit, offset: query.offset };
  }

  async forRecipient(tenant: Tenant, email: string, page: { limit: number; offset: number }) {
    const rows = await repo.listLogsForRecipient(this.db, tenant, email, page);
    return { logs: rows.map(toLog), limit: page.limit, offset: page.offset };
  }

  async stats(tenant: Tenant) {
    const counts = await repo.countByStatus(this.db, tenant);
    const byStatus = Object.fromEntries(repo.EMAIL_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<
      repo.EmailStatus,
      number
    >;
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    return { total, ...byStatus };
  }
}
