import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { AUTH_EVENTS, withOutbox, type UserDeletedData } from '@platform/events';
import { errors, type TenantContext } from '@platform/tenancy';
import { emailAccountLink } from '../account-tokens/account-tokens.service';
import { toManagedUser, type ManagedUser } from '../users/users.mapper';
import { deleteUser, findUserById, listUsers, setDisabled } from '../users/users.service';
import type { ListUsersInput } from './user-admin.schemas';

// The cursor is the last email of the page, opaque to callers.
const encodeCursor = (email: string) => Buffer.from(email, 'utf8').toString('base64url');
function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const email = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!email || encodeCursor(email) !== cursor) throw errors.validation('cursor is not one this endpoint returned');
  return email;
}

const found = <T>(value: T | null | false): T => {
  if (!value) throw errors.notFound('User');
  return value;
};

export async function listProjectUsers(
  db: Knex,
  tenant: Tenant,
  input: ListUsersInput,
): Promise<{ users: ManagedUser[]; nextCursor: string | null }> {
  const rows = await listUsers(db, tenant, {
    prefix: input.email,
    after: decodeCursor(input.cursor),
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return {
    users: page.map(toManagedUser),
    nextCursor: rows.length > input.limit ? encodeCursor(page[page.length - 1].email ?? '') : null,
  };
}

export async function getProjectUser(db: Knex, tenant: Tenant, id: string): Promise<{ user: ManagedUser }> {
  return { user: toManagedUser(found(await findUserById(db, tenant, id))) };
}

export async function setUserDisabled(
  db: Knex,
  tenant: Tenant,
  id: string,
  disabled: boolean,
): Promise<{ user: ManagedUser }> {
  return { user: toManagedUser(found(await setDisabled(db, tenant, id, disabled))) };
}

/** Deletes the user and writes `auth.user.deleted`, by which every service erases their data. */
export async function deleteProjectUser(db: Knex, relay: { kick(): void }, tenant: Tenant, id: string): Promise<void> {
  await withOutbox(db, relay, async (trx, outbox) => {
    const { email } = found(await deleteUser(trx, tenant, id));
    await outbox.write<UserDeletedData>({
      type: AUTH_EVENTS.userDeleted,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      data: { userId: id, reason: 'deleted', email },
    });
  });
}

/** A new verification link for the user (earlier ones stop working); 400 once the email is verified. */
export async function resendUserVerification(
  db: Knex,
  relay: { kick(): void },
  appUrl: string,
  tenant: TenantContext,
  id: string,
) {
  const user = found(await findUserById(db, tenant, id));
  if (!user.email) throw errors.validation('User has no email yet');
  if (user.email_verified) throw errors.validation('Email is already verified');
  await emailAccountLink(db, relay, tenant, { ...user, email: user.email }, 'verify_email', appUrl);
  return { success: true as const, message: 'Verification email sent' };
}
