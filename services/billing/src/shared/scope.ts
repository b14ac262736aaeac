import type { Environment } from './environment';

import type { Tenant } from '@platform/tenancy';
export type { Tenant };

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
