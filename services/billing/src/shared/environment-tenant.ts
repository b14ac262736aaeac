import type { Tenant } from '@platform/tenancy';
import type { Environment } from './environment';

/** The owner of a Billing row: a tenant's project (`Tenant`) in one Stripe environment (every table has both). */
export interface EnvironmentTenant extends Tenant {
  environment: Environment;
}

export const environmentTenantOf = (tenant: Tenant, environment: Environment): EnvironmentTenant => ({
  tenantId: tenant.tenantId,
  projectId: tenant.projectId,
  environment,
});
