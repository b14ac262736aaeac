import { AppError, type TenantContext } from '@platform/tenancy';
import { checkAccountToken, emailAccountLink, redeemAccountToken } from '../account-tokens/account-tokens.service';
import type { AuthContext, Tenant } from '../context';
import { revokeAllOfUser } from '../sessions/refresh-tokens.repository';
import { findUserByEmail, setPassword } from '../users/users.repository';

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this email, a password reset link has been sent';

const resetExpired = () => new AppError('TOKEN_EXPIRED', 'Password reset token has expired; request a new one');

/** Same answer whether or not the account exists, so the endpoint cannot be used to probe emails. */
export async function forgotPassword(ctx: AuthContext, tenant: TenantContext, email: string) {
  const user = await findUserByEmail(ctx.db, tenant, email);
  if (user) await emailAccountLink(ctx, tenant, user, 'reset_password');
  return { success: true as const, message: FORGOT_PASSWORD_MESSAGE };
}

/** Sets the new password, uses up the token and ends every session of the user. */
export async function resetPassword(ctx: AuthContext, tenant: Tenant, input: { token: string; password: string }) {
  // Refuse a bad token before spending a bcrypt hash on it.
  await checkAccountToken(ctx.db, tenant, 'reset_password', input.token, resetExpired);
  const passwordHash = await ctx.passwords.hash(input.password);
  await ctx.db.transaction(async (trx) => {
    const record = await redeemAccountToken(trx, tenant, 'reset_password', input.token, resetExpired);
    await setPassword(trx, tenant, record.userId, passwordHash);
    await revokeAllOfUser(trx, tenant, record.userId);
  });
  return { success: true as const, message: 'Password has been reset' };
}
