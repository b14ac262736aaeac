import { AUTH_EVENTS, writeEvent, type UserRegisteredData } from '@platform/events';
import { AppError, type TenantContext } from '@platform/tenancy';
import { issueAccountLink } from '../account-tokens/account-tokens.service';
import type { AuthContext } from '../context';
import { clearLoginFailures } from '../lockout/login-failures.repository';
import { accessTokenFor, storeRefreshToken } from '../sessions/session-tokens';
import { toUserJson } from '../users/users.mapper';
import { preferredLocale, userLocale } from '../users/user-locale';
import { findUserByEmail, insertUser } from '../users/users.repository';

export interface RegisterInput {
  email: string;
  password: string;
  metadata: Record<string, unknown>;
  /** The Accept-Language of the registration request: kept as metadata.locale when metadata names none. */
  acceptLanguage?: string;
}

const alreadyExists = () => new AppError('USER_ALREADY_EXISTS', 'A user with this email already exists');

/**
 * Creates the user and their first session. The `auth.user.registered` event goes to the
 * outbox in the same transaction; it carries a verification link when the project requires
 * verified emails.
 */
export async function register(ctx: AuthContext, tenant: TenantContext, input: RegisterInput) {
  // Cheap check first, so that a taken email costs no bcrypt work; the unique index decides races.
  if (await findUserByEmail(ctx.db, tenant, input.email)) throw alreadyExists();
  const passwordHash = await ctx.passwords.hash(input.password);
  const headerLocale = preferredLocale(input.acceptLanguage);
  const metadata =
    input.metadata.locale === undefined && headerLocale ? { ...input.metadata, locale: headerLocale } : input.metadata;
  const locale = userLocale(metadata);
  const created = await ctx.db.transaction(async (trx) => {
    const user = await insertUser(trx, tenant, { email: input.email, passwordHash, metadata });
    if (!user) return null;
    // Failures counted while the email had no account are not the new account's: it starts unlocked.
    await clearLoginFailures(trx, tenant, user.email);
    const refreshToken = await storeRefreshToken(trx, tenant, user);
    const verification =
      tenant.settings.requireEmailVerification === true
        ? await issueAccountLink(trx, ctx, tenant, user.id, 'verify_email')
        : undefined;
    await writeEvent<UserRegisteredData>(trx, {
      type: AUTH_EVENTS.userRegistered,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      data: {
        userId: user.id,
        email: user.email,
        ...(verification ? { verification } : {}),
        ...(locale ? { locale } : {}),
      },
    });
    return { user, refreshToken };
  });
  if (!created) throw alreadyExists();
  ctx.relay.kick();
  return {
    success: true as const,
    user: toUserJson(created.user),
    accessToken: accessTokenFor(ctx, tenant, created.user),
    refreshToken: created.refreshToken,
  };
}
