import type { Knex } from 'knex';
import { findTenant, listTenants, setTenantSuspension } from '@platform/directory';
import { errors } from '@platform/tenancy';
import type { AuditContext } from '../audit/audit.model';
import { record } from '../audit/audit.service';
import { toOrganisation, type Organisation } from '../organisations/organisations.mapper';
import * as repo from './operators.repository';

/**
 * What an operator does. The command line (`pnpm admin create-operator`, `suspend-organisation`,
 * ...) calls these same functions, so both paths leave the same audit entries.
 */
export interface OperatorDeps {
  db: Knex;
  platformDb: Knex;
}

export async function createOperator(
  db: Knex,
  context: AuditContext,
  email: string,
): Promise<{ email: string; created: boolean }> {
  const normalised = email.trim().toLowerCase();
  const created = await repo.insertOperator(db, normalised);
  await record(db, context, {
    action: 'operator.create',
    target: normalised,
    outcome: 'success',
    details: { created },
  });
  return { email: normalised, created };
}

export const isOperator = (db: Knex, email: string) => repo.isOperator(db, email.toLowerCase());

export async function listAllOrganisations(
  deps: OperatorDeps,
  page: { limit: number; offset: number },
): Promise<(Organisation & { members: number })[]> {
  const tenants = await listTenants(deps.platformDb, page);
  const counts = await repo.memberCounts(
    deps.db,
    tenants.map((t) => t.id),
  );
  return tenants.map((t) => ({ ...toOrganisation(t), members: counts.get(t.id) ?? 0 }));
}

/** Suspends an organisation: its keys and member tokens are refused by every service within the key cache TTL. */
export async function suspendOrganisation(
  deps: OperatorDeps,
  context: AuditContext,
  tenantId: string,
  reason: string,
): Promise<Organisation> {
  if (!(await findTenant(deps.platformDb, tenantId))) throw errors.notFound('Organisation');
  const tenant = await setTenantSuspension(deps.platformDb, tenantId, reason);
  await record(deps.db, context, {
    tenantId,
    action: 'organisation.suspend',
    target: tenantId,
    outcome: 'success',
    details: { reason },
  });
  return toOrganisation(tenant);
}

export async function liftSuspension(
  deps: OperatorDeps,
  context: AuditContext,
  tenantId: string,
): Promise<Organisation> {
  if (!(await findTenant(deps.platformDb, tenantId))) throw errors.notFound('Organisation');
  const tenant = await setTenantSuspension(deps.platformDb, tenantId, null);
  await record(deps.db, context, { tenantId, action: 'organisation.unsuspend', target: tenantId, outcome: 'success' });
  return toOrganisation(tenant);
}
