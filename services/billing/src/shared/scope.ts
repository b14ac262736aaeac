import type { TenantContext } from '@platform/tenancy';
import type { Environment } from './environment';

/** Whose data: the tenant and project, and Stripe's mode (test and live data never mix). */
export type Tenant = Pick<TenantContext, 'tenantId' | 'projectId'>;

export interface Scope extends Tenant {
  environment: Environment;
}

export const scopeOf = (tenant: Tenant, environment: Environment): Scope => ({
  tenantId: tenant.tenantId,
  projectId: tenant.projectId,
  environment,
});

/** Where a row of this scope lives (every table has these three columns). */
export const scopeColumns = (scope: Scope) => ({
  tenant_id: scope.tenantId,
  project_id: scope.projectId,
  environment: scope.environment,
});
