import { toIso } from '@platform/tenancy';
import type { AttemptRow, DeliveryRow, WebhookRow } from './webhooks.repository';

export const toWebhook = (row: WebhookRow) => ({ ...row, createdAt: toIso(row.createdAt) as string });

export type Webhook = ReturnType<typeof toWebhook>;

const toAttempt = (row: AttemptRow) => ({
  attempt: row.attempt,
  outcome: row.outcome,
  statusCode: row.statusCode,
  error: row.error,
  durationMs: row.durationMs,
  createdAt: toIso(row.createdAt) as string,
});

export const toDelivery = (row: DeliveryRow, attempts: AttemptRow[]) => ({
  id: row.id,
  webhookId: row.webhookId,
  event: row.event,
  status: row.status,
  attemptCount: row.attemptCount,
  payload: JSON.parse(row.body) as unknown,
  attempts: attempts.map(toAttempt),
  createdAt: toIso(row.createdAt) as string,
  updatedAt: toIso(row.updatedAt) as string,
});

export type WebhookDelivery = ReturnType<typeof toDelivery>;
