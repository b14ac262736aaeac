import type { Tenant } from '@platform/tenancy';
import type { Environment } from './environment';

/** The owner of a Billing row: a project, in one Stripe environment (every table has both). */
export interface Scope extends Tenant {
  environment: Environment;
}

export const scopeOf = (tenant: Tenant, environment: Environment): Scope => ({
  tenantId: tenant.tenantId,
  projectId: tenant.projectId,
  environment,
});
