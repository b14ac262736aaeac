import { toIso } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import { ENVIRONMENTS, type Environment } from '../shared/environment';
import { scopeOf, type Tenant } from '../shared/scope';
import { listStripeConfigs, upsertStripeConfig, type StripeConfigRow } from './stripe-config.repository';
import type { PutStripeConfigInput } from './stripe-config.schemas';

export interface StripeConfigStatus {
  environment: Environment;
  configured: boolean;
  webhookConfigured: boolean;
  /** Where Stripe should send this environment's events (under this service's address). */
  webhookPath: string;
  updatedAt: string | null;
}

const statusOf = (tenant: Tenant, environment: Environment, row?: StripeConfigRow): StripeConfigStatus => ({
  environment,
  configured: Boolean(row),
  webhookConfigured: Boolean(row?.webhookSecretEnc),
  webhookPath: `/v1/pay/webhooks/${tenant.tenantId}/${tenant.projectId}?environment=${environment}`,
  updatedAt: toIso(row?.updatedAt ?? null),
});

/** Stores the keys encrypted and drops the cached client, so the next call uses the new key. */
export async function putStripeConfig(
  ctx: BillingContext,
  tenant: Tenant,
  environment: Environment,
  input: PutStripeConfigInput,
) {
  const scope = scopeOf(tenant, environment);
  const row = await upsertStripeConfig(ctx.db, scope, {
    secretKeyEnc: ctx.secrets.encrypt(input.secretKey),
    webhookSecretEnc: input.webhookSecret === undefined ? undefined : ctx.secrets.encrypt(input.webhookSecret),
  });
  ctx.clients.invalidate(scope);
  return { success: true, ...statusOf(tenant, environment, row) };
}

/** Which environments have keys; never the keys themselves. */
export async function getStripeConfig(ctx: BillingContext, tenant: Tenant, environment: Environment) {
  const rows = await listStripeConfigs(ctx.db, tenant);
  const environments = ENVIRONMENTS.map((env) =>
    statusOf(
      tenant,
      env,
      rows.find((r) => r.environment === env),
    ),
  );
  const requested = environments.find((e) => e.environment === environment)!;
  return { success: true, ...requested, environments };
}
