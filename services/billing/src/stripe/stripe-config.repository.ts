import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';
import type { Environment } from '../shared/environment';
import type { EnvironmentTenant } from '../shared/environment-tenant';

/** A project's Stripe keys for one environment, encrypted with the platform's master key. */
export interface StripeConfigRow {
  environment: Environment;
  secret_key_enc: string;
  webhook_secret_enc: string | null;
  updated_at: Date;
}

export interface StripeConfigKeys {
  secretKeyEnc: string;
  /** Left out: the stored webhook secret is kept. */
  webhookSecretEnc?: string;
}

const COLUMNS = ['environment', 'secret_key_enc', 'webhook_secret_enc', 'updated_at'] as const;

export async function findStripeConfig(db: Knex, scope: EnvironmentTenant): Promise<StripeConfigRow | undefined> {
  return tenantTable<StripeConfigRow>(db, scope, 'stripe_configs')
    .where({ environment: scope.environment })
    .first(...COLUMNS);
}

/** Both environments' rows of a project (those it has). */
export async function listStripeConfigs(db: Knex, owner: Tenant): Promise<StripeConfigRow[]> {
  return tenantTable<StripeConfigRow>(db, owner, 'stripe_configs').select(...COLUMNS);
}

/** Stores the keys; a webhook secret left out keeps the one stored before. */
export async function upsertStripeConfig(
  db: Knex,
  scope: EnvironmentTenant,
  keys: StripeConfigKeys,
): Promise<StripeConfigRow> {
  const merge: Partial<Record<keyof StripeConfigRow, unknown>> = {
    secret_key_enc: keys.secretKeyEnc,
    updated_at: db.fn.now(),
  };
  if (keys.webhookSecretEnc !== undefined) merge.webhook_secret_enc = keys.webhookSecretEnc;
  const [row] = await tenantTable(db, scope, 'stripe_configs')
    .insert({
      ...tenantColumns(scope),
      environment: scope.environment,
      secret_key_enc: keys.secretKeyEnc,
      webhook_secret_enc: keys.webhookSecretEnc ?? null,
    })
    .onConflict(['tenant_id', 'project_id', 'environment'])
    .merge(merge)
    .returning<StripeConfigRow[]>([...COLUMNS]);
  return row;
}
