import { toIso, type Tenant } from '@platform/tenancy';
import type { Environment } from '../shared/environment';
import type { StripeConfigRow } from './stripe-config.repository';

/** Whether an environment has keys; never the keys themselves. */
export interface StripeConfigStatus {
  environment: Environment;
  configured: boolean;
  webhookConfigured: boolean;
  /** Where Stripe should send this environment's events (under this service's address). */
  webhookPath: string;
  updatedAt: string | null;
}

export function toStripeConfigStatus(
  tenant: Tenant,
  environment: Environment,
  row: StripeConfigRow | undefined,
): StripeConfigStatus {
  return {
    environment,
    configured: Boolean(row),
    webhookConfigured: Boolean(row?.webhook_secret_enc),
    webhookPath: `/v1/pay/webhooks/${tenant.tenantId}/${tenant.projectId}?environment=${environment}`,
    updatedAt: toIso(row?.updated_at ?? null),
  };
}
