import type { Knex } from 'knex';
import type { Tenant } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import { ENVIRONMENTS, type Environment } from '../shared/environment';
import { environmentTenantOf } from '../shared/environment-tenant';
import type { StripeClients } from './stripe-clients';
import { toStripeConfigStatus } from './stripe-config.mapper';
import { listStripeConfigs, upsertStripeConfig } from './stripe-config.repository';
import type { PutStripeConfigInput } from './stripe-config.schemas';

/** Stores the keys encrypted and drops the cached client, so the next call uses the new key. */
export async function putStripeConfig(
  db: Knex,
  secrets: SecretBox,
  clients: StripeClients,
  tenant: Tenant,
  environment: Environment,
  input: PutStripeConfigInput,
) {
  const scope = environmentTenantOf(tenant, environment);
  const row = await upsertStripeConfig(db, scope, {
    secretKeyEnc: secrets.encrypt(input.secretKey),
    webhookSecretEnc: input.webhookSecret === undefined ? undefined : secrets.encrypt(input.webhookSecret),
  });
  clients.invalidate(scope);
  return { success: true, ...toStripeConfigStatus(tenant, environment, row) };
}

/** Which environments have keys; never the keys themselves. */
export async function getStripeConfig(db: Knex, tenant: Tenant, environment: Environment) {
  const rows = await listStripeConfigs(db, tenant);
  const environments = ENVIRONMENTS.map((env) =>
    toStripeConfigStatus(
      tenant,
      env,
      rows.find((r) => r.environment === env),
    ),
  );
  const requested = environments.find((e) => e.environment === environment)!;
  return { success: true, ...requested, environments };
}
