import type { Knex } from 'knex';
import { AUTH_EVENTS, withOutbox, type UserRegisteredData } from '@platform/events';
import { AppError, type TenantContext } from '@platform/tenancy';
import { issueAccountLink } from '../account-tokens/account-tokens.service';
import type { Issuer } from '../issuer';
import { clearLoginFailures } from '../lockout/lockout.service';
import { accessTokenFor, enrollmentOnly, startSession } from '../sessions/session-tokens';
import { recordEvents } from '../audit/audit.service';
import type { ClientInfo } from '../shared/client';
import { toUser } from '../users/users.mapper';
import { preferredLocale, userLocale } from '../users/user-locale';
import { findUserByEmail, insertUser } from '../users/users.service';

export interface RegisterInput {
  email: string;
  password: string;
  metadata: Record<string, unknown>;
  /** The Accept-Language of the registration request: kept as metadata.locale when metadata names none. */
  acceptLanguage?: string;
  client: ClientInfo;
}

const alreadyExists = () => new AppError('USER_ALREADY_EXISTS', 'A user with this email already exists');

/**
 * Creates the user and their first session. The `auth.user.registered` event goes to the
 * outbox in the same transaction; it carries a verification link when the project requires
 * verified emails.
 */
export async function register(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
  tenant: TenantContext,
  input: RegisterInput,
) {
  // Cheap check first, so that a taken email costs no bcrypt work; the unique index decides races.
  if (await findUserByEmail(db, tenant, input.email)) throw alreadyExists();
  const passwordHash = await issuer.passwords.hash(input.password);
  const headerLocale = preferredLocale(input.acceptLanguage);
  const metadata =
    input.metadata.locale === undefined && headerLocale ? { ...input.metadata, locale: headerLocale } : input.metadata;
  const locale = userLocale(metadata);
  const created = await withOutbox(db, relay, async (trx, outbox) => {
    const user = await insertUser(trx, tenant, { email: input.email, passwordHash, metadata });
    if (!user) return null;
    // Failures counted while the email had no account are not the new account's: it starts unlocked.
    await clearLoginFailures(trx, tenant, input.email);
    const { session, refreshToken } = await startSession(trx, tenant, user, {
      method: 'registration',
      aal: 'aal1',
      client: input.client,
    });
    await recordEvents(trx, tenant, {
      type: 'sign_up',
      userId: user.id,
      client: input.client,
      sessionId: session.id,
      data: { method: 'password' },
    });
    const verification =
      tenant.settings.requireEmailVerification === true
        ? await issueAccountLink(trx, tenant, user.id, 'verify_email', issuer.appUrl)
        : undefined;
    await outbox.write<UserRegisteredData>({
      type: AUTH_EVENTS.userRegistered,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      data: {
        userId: user.id,
        email: input.email,
        ...(verification ? { verification } : {}),
        ...(locale ? { locale } : {}),
      },
    });
    return { user, session, refreshToken };
  });
  if (!created) throw alreadyExists();
  return {
    success: true as const,
    user: toUser(created.user),
    accessToken: accessTokenFor(issuer.signer, tenant, created.user, {
      ...created.session,
      enrollmentOnly: enrollmentOnly(tenant.settings, created.session.aal),
    }),
    refreshToken: created.refreshToken,
  };
}
