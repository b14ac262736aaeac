import { toIso } from '@platform/tenancy';
import type { EmailStatus } from './emails.model';
import type { LogRow, SendAttempt } from './logs.repository';

/** One email to one recipient, with the providers it was handed to, as the API returns it. */
export interface EmailLog {
  id: string;
  messageId: string;
  to: string;
  from: string;
  subject: string;
  status: EmailStatus;
  provider: string;
  providerId: string | null;
  vendorMessageId: string | null;
  templateId: string | null;
  source: string;
  error: string | null;
  category: LogRow['category'];
  suppressionReason: string | null;
  attempts: SendAttempt[];
  html: string | null;
  text: string | null;
  sentAt: string;
  updatedAt: string;
}

/** Rows become API objects here and nowhere else. `messageId` is the id `send` returned. */
export function toLog(row: LogRow): EmailLog {
  return {
    id: row.id,
    messageId: row.id,
    to: row.to_email,
    from: row.from_email,
    subject: row.subject,
    status: row.status,
    provider: row.provider,
    providerId: row.provider_id,
    vendorMessageId: row.vendor_message_id,
    templateId: row.template_id,
    source: row.source,
    error: row.error,
    category: row.category,
    suppressionReason: row.suppression_reason,
    attempts: row.attempts,
    html: row.html,
    text: row.text,
    sentAt: toIso(row.sent_at)!,
    updatedAt: toIso(row.updated_at)!,
  };
}
