import type { Knex } from 'knex';
import { errors, type TenantContext } from '@platform/tenancy';
import { recordEvents } from '../audit/audit.service';
import type { Issuer } from '../issuer';
import { clearLoginFailures } from '../lockout/lockout.service';
import { hasActiveFactor, startChallenge } from '../mfa/mfa.service';
import type { ClientInfo } from '../shared/client';
import type { SignInMethod } from '../user-sessions/user-sessions.model';
import { lockoutSubject } from '../users/user-email';
import { toUser } from '../users/users.mapper';
import type { UserRow } from '../users/users.model';
import { markSignedIn } from '../users/users.service';
import { accessTokenFor, enrollmentOnly, startSession } from './session-tokens';

/** How a sign-in without a password was proved: recorded on the session and in the trail. */
export interface PasswordlessProof {
  method: Extract<SignInMethod, 'email_code' | 'oidc'>;
  /** Kept in the trail's data (`via: "link"`, `provider: "google"`): never a code or a token. */
  detail: Record<string, unknown>;
  client: ClientInfo;
  /** The account was created by this very sign-in (its sign_up event is already recorded). */
  created?: boolean;
  /** Runs in the transaction that starts the session; throwing there issues nothing. */
  onSession?: (trx: Knex.Transaction, sessionId: string) => Promise<void>;
}

/**
 * Ends a sign-in proved by an e-mail code or a provider as a password sign-in ends: a disabled
 * user is refused, an active second factor turns it into an MFA challenge, otherwise the email's
 * failures are forgotten and a session starts (same tokens, `sid`, `aal`, enrollment scope).
 */
export async function finishPasswordlessSignIn(
  db: Knex,
  issuer: Issuer,
  tenant: TenantContext,
  user: UserRow,
  proof: PasswordlessProof,
) {
  if (user.disabled_at) throw errors.forbidden('This account is disabled');
  if (await hasActiveFactor(db, tenant, user.id)) return startChallenge(db, tenant, user);
  const started = await db.transaction(async (trx) => {
    const signedIn = (await markSignedIn(trx, tenant, user.id)) ?? user;
    await clearLoginFailures(trx, tenant, lockoutSubject(signedIn));
    const { session, refreshToken } = await startSession(trx, tenant, signedIn, {
      method: proof.method,
      aal: 'aal1',
      client: proof.client,
    });
    await proof.onSession?.(trx, session.id);
    if (!proof.created) {
      await recordEvents(trx, tenant, {
        type: 'sign_in',
        userId: signedIn.id,
        client: proof.client,
        sessionId: session.id,
        data: { method: proof.method, aal: session.aal, ...proof.detail },
      });
    }
    return { user: signedIn, session, refreshToken };
  });
  return {
    success: true as const,
    user: toUser(started.user),
    accessToken: accessTokenFor(issuer.signer, tenant, started.user, {
      ...started.session,
      enrollmentOnly: enrollmentOnly(tenant.settings, started.session.aal),
    }),
    refreshToken: started.refreshToken,
  };
}
