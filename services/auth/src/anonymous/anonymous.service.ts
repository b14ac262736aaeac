import type { Knex } from 'knex';
import { AUTH_EVENTS, withOutbox, type UserRegisteredData } from '@platform/events';
import { AppError, errors, type AccessTokenClaims, type TenantContext } from '@platform/tenancy';
import { issueAccountLink } from '../account-tokens/account-tokens.service';
import { recordEvents } from '../audit/audit.service';
import type { Issuer } from '../issuer';
import { clearLoginFailures } from '../lockout/lockout.service';
import { accessTokenFor, enrollmentOnly, startSession } from '../sessions/session-tokens';
import type { ClientInfo } from '../shared/client';
import { findSession } from '../user-sessions/user-sessions.service';
import { userLocale } from '../users/user-locale';
import { toUser } from '../users/users.mapper';
import { convertAnonymous, findUserByEmail, findUserById, insertUser } from '../users/users.service';

const notEnabled = () => errors.forbidden('Anonymous sign-in is not enabled for this project');

/** A user with no e-mail and no password, and their first session: `is_anonymous` in the token. */
export async function signInAnonymously(
  db: Knex,
  issuer: Issuer,
  tenant: TenantContext,
  metadata: Record<string, unknown>,
  client: ClientInfo,
) {
  if (tenant.settings.anonymousSignIn !== true) throw notEnabled();
  const created = await db.transaction(async (trx) => {
    const user = await insertUser(trx, tenant, { email: null, passwordHash: null, metadata, anonymous: true });
    if (!user) throw new Error('an anonymous user without an e-mail cannot conflict');
    const { session, refreshToken } = await startSession(trx, tenant, user, {
      method: 'anonymous',
      aal: 'aal1',
      client,
    });
    await recordEvents(trx, tenant, {
      type: 'sign_up',
      userId: user.id,
      client,
      sessionId: session.id,
      data: { method: 'anonymous' },
    });
    return { user, session, refreshToken };
  });
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

const emailTaken = () => new AppError('USER_ALREADY_EXISTS', 'A user with this email already exists');

/**
 * The anonymous user of the token signs up with an e-mail and password and keeps their id and
 * data; the answer carries an access token for the same session without `is_anonymous`. The
 * registration event goes out as for POST /register (with a verification link when required).
 */
export async function convertWithPassword(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
  tenant: TenantContext,
  claims: AccessTokenClaims,
  input: { email: string; password: string },
  client: ClientInfo,
) {
  const current = await findUserById(db, tenant, claims.userId);
  if (!current) throw errors.invalidSession();
  if (current.anonymous_since === null) throw errors.conflict('This user has already signed up');
  if (await findUserByEmail(db, tenant, input.email)) throw emailTaken();
  const passwordHash = await issuer.passwords.hash(input.password);
  const user = await withOutbox(db, relay, async (trx, outbox) => {
    const converted = await convertAnonymous(trx, tenant, current.id, {
      email: input.email,
      passwordHash,
      emailVerified: false,
    });
    if (!converted) return null;
    await clearLoginFailures(trx, tenant, input.email);
    await recordEvents(trx, tenant, {
      type: 'anonymous_converted',
      userId: converted.id,
      client,
      sessionId: claims.sessionId ?? null,
      data: { method: 'password' },
    });
    const verification =
      tenant.settings.requireEmailVerification === true
        ? await issueAccountLink(trx, tenant, converted.id, 'verify_email', issuer.appUrl)
        : undefined;
    const locale = userLocale(converted.metadata);
    await outbox.write<UserRegisteredData>({
      type: AUTH_EVENTS.userRegistered,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      data: {
        userId: converted.id,
        email: input.email,
        ...(verification ? { verification } : {}),
        ...(locale ? { locale } : {}),
      },
    });
    return converted;
  });
  if (!user) throw emailTaken();
  const session = claims.sessionId ? await findSession(db, tenant, claims.sessionId) : null;
  const aal = session?.aal ?? 'aal1';
  return {
    success: true as const,
    user: toUser(user),
    accessToken: accessTokenFor(issuer.signer, tenant, user, {
      id: claims.sessionId ?? '',
      aal,
      enrollmentOnly: enrollmentOnly(tenant.settings, aal),
    }),
  };
}
