import { toIso } from '@platform/tenancy';
import type { AttemptOutcome } from '@platform/webhooks';
import type { ContentEvent, DeliveryStatus } from './webhooks.model';
import type { AttemptRow, DeliveryRow, WebhookRow } from './webhooks.repository';

export interface Webhook {
  id: string;
  url: string;
  events: ContentEvent[];
  createdAt: string;
}

export interface WebhookAttempt {
  attempt: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  createdAt: string;
}

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  event: ContentEvent;
  status: DeliveryStatus;
  attemptCount: number;
  /** The JSON body sent (and signed). */
  payload: unknown;
  attempts: WebhookAttempt[];
  createdAt: string;
  updatedAt: string;
}

/** Rows become API objects here and nowhere else. */
export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: toIso(row.created_at) as string,
});

const toAttempt = (row: AttemptRow): WebhookAttempt => ({
  attempt: row.attempt,
  outcome: row.outcome,
  statusCode: row.status_code,
  error: row.error,
  durationMs: row.duration_ms,
  createdAt: toIso(row.created_at) as string,
});

/** A delivery with its attempts, oldest first. */
export const toDelivery = (row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  event: row.event,
  status: row.status,
  attemptCount: row.attempt_count,
  payload: JSON.parse(row.body) as unknown,
  attempts: attempts.map(toAttempt),
  createdAt: toIso(row.created_at) as string,
  updatedAt: toIso(row.updated_at) as string,
});
