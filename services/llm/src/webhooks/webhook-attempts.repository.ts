import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import { writeEvent } from '@platform/events';
import type { Tenant } from '@platform/tenancy';
import {
  attemptHandled as sharedAttemptHandled,
  markAttemptHandled as sharedMarkAttemptHandled,
  type AttemptOutcome,
} from '@platform/webhooks';
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

const CONSUMER = 'llm.batch-webhooks';

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

/** True when this event (one attempt) was already carried out and recorded. */
export async function attemptHandled(db: Knex, eventId: string): Promise<boolean> {
  return sharedAttemptHandled(db, CONSUMER, eventId);
}

/** Marks the attempt's event done; false when another delivery of it got there first. */
export async function markAttemptHandled(trx: Knex.Transaction, eventId: string): Promise<boolean> {
  return sharedMarkAttemptHandled(trx, CONSUMER, eventId);
}

/**
 * Puts the next attempt in the outbox, due at `dueAt`: the relay publishes it then, so a retry
 * waits in the database (surviving restarts) rather than in a broker or a timer.
 */
export async function scheduleRetry(
  trx: Knex.Transaction,
  tenant: Tenant,
  data: WebhookRetryData,
  dueAt: Date,
): Promise<void> {
  await writeEvent(trx, { type: BATCH_EVENTS.webhookRetry, ...tenant, data }, { availableAt: dueAt });
}
