import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { errors, type TenantContext } from '@platform/tenancy';
import { emailAccountLink, ownerOfToken, redeemAccountToken } from '../account-tokens/account-tokens.service';
import { recordEvents } from '../audit/audit.service';
import type { ClientInfo } from '../shared/client';
import { findUserByEmail, markEmailVerified } from '../users/users.service';

// SPEC.md: verify-email answers 400 for an invalid or expired token (reset-password uses 410).
const verifyExpired = () => errors.validation('Verification token has expired; request a new one');
const invalidToken = () => errors.validation('Token is invalid or has already been used');

/**
 * Marks the email verified. The token alone identifies the user (the link in the email is
 * all the caller has); when keys were sent, the token must belong to that project.
 */
export async function verifyEmail(db: Knex, keysTenant: Tenant | undefined, token: string, client: ClientInfo) {
  const owner = await ownerOfToken(db, 'verify_email', token);
  if (!owner) throw invalidToken();
  if (keysTenant && (keysTenant.tenantId !== owner.tenantId || keysTenant.projectId !== owner.projectId)) {
    throw invalidToken();
  }
  await db.transaction(async (trx) => {
    const record = await redeemAccountToken(trx, owner, 'verify_email', token, verifyExpired);
    await markEmailVerified(trx, owner, record.user_id);
    await recordEvents(trx, owner, { type: 'email_verified', userId: record.user_id, client });
  });
  return { success: true as const, message: 'Email verified' };
}

export async function resendVerification(
  db: Knex,
  relay: { kick(): void },
  appUrl: string,
  tenant: TenantContext,
  email: string,
) {
  const user = await findUserByEmail(db, tenant, email);
  if (!user) throw errors.validation('No account with this email');
  if (user.email_verified || !user.email) throw errors.validation('Email is already verified');
  await emailAccountLink(db, relay, tenant, { ...user, email: user.email }, 'verify_email', appUrl);
  return { success: true as const, message: 'Verification email sent' };
}
