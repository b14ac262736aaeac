import type { TenantContext } from '@platform/tenancy';

/** What every repository function takes first. */
export type Tenant = Pick<TenantContext, 'tenantId' | 'projectId'>;

/** Postgres unique_violation, optionally on one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = error as { code?: string; constraint?: string };
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/** Joi email rule shared by every endpoint (no TLD list: internal domains are valid recipients). */
export const EMAIL_OPTIONS = { tlds: { allow: false } } as const;
