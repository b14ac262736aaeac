import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { OutboxWriter } from '@platform/events';
import type { Tenant } from '@platform/tenancy';
import type { AttemptOutcome } from '@platform/webhooks';
import { BATCH_EVENTS, type WebhookRetryData } from '../batches/batch-events';

export interface WebhookAttempt {
  batchId: string;
  webhookId: string;
  attempt: number;
  url: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export async function recordAttempt(db: Knex, tenant: Tenant, attempt: WebhookAttempt): Promise<void> {
  await tenantTable(db, tenant, 'webhook_attempts').insert({
    id: randomUUID(),
    ...tenantColumns(tenant),
    batch_id: attempt.batchId,
    webhook_id: attempt.webhookId,
    attempt: attempt.attempt,
    url: attempt.url,
    outcome: attempt.outcome,
    status_code: attempt.statusCode,
    error: attempt.error,
    duration_ms: attempt.durationMs,
  });
}

/**
 * Puts the next attempt in the outbox, due at `dueAt`: the relay publishes it then, so a retry
 * waits in the database (surviving restarts) rather than in a broker or a timer.
 */
export async function scheduleRetry(
  outbox: OutboxWriter,
  tenant: Tenant,
  data: WebhookRetryData,
  dueAt: Date,
): Promise<void> {
  await outbox.write({ type: BATCH_EVENTS.webhookRetry, ...tenant, data }, { availableAt: dueAt });
}
