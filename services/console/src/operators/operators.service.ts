import type { Knex } from 'knex';
import { findTenant, listTenants, setTenantSuspension } from '@platform/directory';
import { errors } from '@platform/tenancy';
import type { Member } from '../access/access.model';
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

/**
 * Names an operator by e-mail; with `userId` (the user of the reserved project) bound at once,
 * else bound at that address's first sign-in whose e-mail Authentication has verified.
 */
export async function createOperator(
  db: Knex,
  context: AuditContext,
  email: string,
  userId: string | null = null,
): Promise<{ email: string; created: boolean }> {
  const normalised = email.trim().toLowerCase();
  const created = await repo.insertOperator(db, normalised, userId);
  await record(db, context, {
    action: 'operator.create',
    target: normalised,
    outcome: 'success',
    details: { created },
  });
  return { email: normalised, created };
}

/** Whether an address is named as an operator's (who may sign up while sign-up is by invitation). */
export const isOperatorAddress = async (db: Knex, email: string) =>
  (await repo.findOperator(db, email.toLowerCase())) !== undefined;

/**
 * Whether the signed-in member is an operator: the user bound to the operator's address, or,
 * while none is bound, its user once Authentication says the address is verified (then bound).
 * Someone who signed up with an operator's address without proving it gets nothing.
 */
export async function isOperator(db: Knex, member: Member, emailVerified: () => Promise<boolean>): Promise<boolean> {
  const operator = await repo.findOperator(db, member.email.toLowerCase());
  if (!operator) return false;
  if (operator.user_id !== null) return operator.user_id === member.userId;
  if (!(await emailVerified())) return false;
  await repo.bindOperatorUser(db, operator.email, member.userId);
  return (await repo.findOperator(db, operator.email))?.user_id === member.userId;
}

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
