import type { Knex } from 'knex';
import { scopeColumns, type Scope, type Tenant } from '../shared/scope';
import type { Environment } from '../shared/environment';

export interface StripeConfigRow {
  environment: Environment;
  secretKeyEnc: string;
  webhookSecretEnc: string | null;
  updatedAt: Date;
}

const COLUMNS = ['environment', 'secret_key_enc', 'webhook_secret_enc', 'updated_at'];

const toRow = (r: Record<string, unknown>): StripeConfigRow => ({
  environment: r.environment as Environment,
  secretKeyEnc: r.secret_key_enc as string,
  webhookSecretEnc: (r.webhook_secret_enc as string | null) ?? null,
  updatedAt: r.updated_at as Date,
});

export async function findStripeConfig(db: Knex, scope: Scope): Promise<StripeConfigRow | null> {
  const row = await db('stripe_configs').where(scopeColumns(scope)).first(COLUMNS);
  return row ? toRow(row) : null;
}

export async function listStripeConfigs(db: Knex, tenant: Tenant): Promise<StripeConfigRow[]> {
  const rows = await db('stripe_configs')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId })
    .select(COLUMNS);
  return rows.map(toRow);
}

/** Stores the keys; a webhook secret left out keeps the one stored before. */
export async function upsertStripeConfig(
  db: Knex,
  scope: Scope,
  values: { secretKeyEnc: string; webhookSecretEnc?: string },
): Promise<StripeConfigRow> {
  const merge: Record<string, unknown> = { secret_key_enc: values.secretKeyEnc, updated_at: db.fn.now() };
  if (values.webhookSecretEnc !== undefined) merge.webhook_secret_enc = values.webhookSecretEnc;
  const [row] = await db('stripe_configs')
    .insert({
      ...scopeColumns(scope),
      secret_key_enc: values.secretKeyEnc,
      webhook_secret_enc: values.webhookSecretEnc ?? null,
    })
    .onConflict(['tenant_id', 'project_id', 'environment'])
    .merge(merge)
    .returning(COLUMNS);
  return toRow(row);
}
