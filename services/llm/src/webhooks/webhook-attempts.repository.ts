import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { TenantContext } from '@platform/tenancy';

type Tenant = Pick<TenantContext, 'tenantId' | 'projectId'>;

export type AttemptOutcome = 'delivered' | 'failed' | 'refused';

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
  await db('webhook_attempts').insert({
    id: randomUUID(),
    tenant_id: tenant.tenantId,
    project_id: tenant.projectId,
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

/** How many attempts this webhook has had, and whether one of them was delivered or refused for good. */
export async function attemptsSoFar(db: Knex, tenant: Tenant, webhookId: string): Promise<{ count: number; settled: boolean }> {
  const rows = await db('webhook_attempts')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId, webhook_id: webhookId })
    .select('outcome');
  return { count: rows.length, settled: rows.some((r: { outcome: AttemptOutcome }) => r.outcome !== 'failed') };
}
