import { errors, sha256Hex, type TenantContext } from '@platform/tenancy';
import { findTokenOwner } from '../account-tokens/account-tokens.repository';
import { emailAccountLink, redeemAccountToken } from '../account-tokens/account-tokens.service';
import type { AuthContext, Tenant } from '../context';
import { findUserByEmail, markEmailVerified } from '../users/users.repository';

// SPEC.md: verify-email answers 400 for an invalid or expired token (reset-password uses 410).
const verifyExpired = () => errors.validation('Verification token has expired; request a new one');
const invalidToken = () => errors.validation('Token is invalid or has already been used');

/**
 * Marks the email verified. The token alone identifies the user (the link in the email is
 * all the caller has); when keys were sent, the token must belong to that project.
 */
export async function verifyEmail(ctx: AuthContext, keysTenant: Tenant | undefined, token: string) {
  const owner = await findTokenOwner(ctx.db, 'verify_email', sha256Hex(token));
  if (!owner) throw invalidToken();
  if (keysTenant && (keysTenant.tenantId !== owner.tenantId || keysTenant.projectId !== owner.projectId)) {
    throw invalidToken();
  }
  await ctx.db.transaction(async (trx) => {
    const record = await redeemAccountToken(trx, owner, 'verify_email', token, verifyExpired);
    await markEmailVerified(trx, owner, record.userId);
  });
  return { success: true as const, message: 'Email verified' };
}

export async function resendVerification(ctx: AuthContext, tenant: TenantContext, email: string) {
  const user = await findUserByEmail(ctx.db, tenant, email);
  if (!user) throw errors.validation('No account with this email');
  if (user.emailVerified) throw errors.validation('Email is already verified');
  await emailAccountLink(ctx, tenant, user, 'verify_email');
  return { success: true as const, message: 'Verification email sent' };
}
