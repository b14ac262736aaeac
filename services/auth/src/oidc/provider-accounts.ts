import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { recordEvents } from '../audit/audit.service';
import type { ClientInfo } from '../shared/client';
import type { UserRow } from '../users/users.model';
import { convertAnonymous, endAnonymity, findUserByEmail, findUserById, insertUser } from '../users/users.service';
import type { ProviderClaims } from './id-token';
import { findIdentity, insertIdentity, touchIdentity } from './identities.repository';
import { OidcRedirectError } from './oidc.errors';
import type { OidcProviderRow } from './providers.repository';

export interface ResolvedAccount {
  user: UserRow;
  outcome: 'sign_up' | 'sign_in' | 'link';
}

/**
 * The user a provider account signs in to:
 * - its identity's user, when it has signed in before;
 * - when linking, the signed-in user (an anonymous one stops being anonymous);
 * - the user whose e-mail it is, only when the provider says the e-mail is verified (an
 *   unverified one is never linked silently: `email_not_verified`);
 * - otherwise a new user, unless the e-mail is unverified and the provider is not set to accept that.
 */
export async function resolveAccount(
  db: Knex,
  owner: Tenant,
  provider: OidcProviderRow,
  claims: ProviderClaims,
  linkUserId: string | null,
  client: ClientInfo,
): Promise<ResolvedAccount> {
  const identity = await findIdentity(db, owner, provider.name, claims.subject);
  const linked = (userId: string, via: string) =>
    recordEvents(db, owner, {
      type: 'identity_linked',
      userId,
      client,
      data: { provider: provider.name, via },
    });

  if (linkUserId) {
    if (identity && identity.user_id !== linkUserId) throw new OidcRedirectError('identity_already_linked');
    const user = await findUserById(db, owner, linkUserId);
    if (!user) throw new OidcRedirectError('invalid_request');
    if (!identity) {
      if (!(await insertIdentity(db, owner, { userId: user.id, provider: provider.name, ...identityClaims(claims) }))) {
        throw new OidcRedirectError('identity_already_linked');
      }
      await linked(user.id, 'signed_in');
    }
    return { user: await leaveAnonymity(db, owner, user, claims, provider.name, client), outcome: 'link' };
  }

  if (identity) {
    const user = await findUserById(db, owner, identity.user_id);
    if (!user) throw new OidcRedirectError('server_error');
    await touchIdentity(db, owner, identity.id, { email: claims.email, emailVerified: claims.emailVerified });
    if (user.disabled_at) throw new OidcRedirectError('account_disabled');
    return { user, outcome: 'sign_in' };
  }

  if (claims.email) {
    const existing = await findUserByEmail(db, owner, claims.email);
    if (existing) {
      if (!claims.emailVerified) throw new OidcRedirectError('email_not_verified');
      if (existing.disabled_at) throw new OidcRedirectError('account_disabled');
      if (
        !(await insertIdentity(db, owner, { userId: existing.id, provider: provider.name, ...identityClaims(claims) }))
      ) {
        throw new OidcRedirectError('identity_already_linked');
      }
      await linked(existing.id, 'verified_email');
      return { user: existing, outcome: 'sign_in' };
    }
    if (!claims.emailVerified && !provider.accept_unverified_emails) throw new OidcRedirectError('email_not_verified');
  }

  const created = await db.transaction(async (trx) => {
    const user = await insertUser(trx, owner, {
      email: claims.email,
      passwordHash: null,
      metadata: {},
      emailVerified: claims.emailVerified,
    });
    if (!user) return null;
    await insertIdentity(trx, owner, { userId: user.id, provider: provider.name, ...identityClaims(claims) });
    await recordEvents(trx, owner, {
      type: 'sign_up',
      userId: user.id,
      client,
      data: { method: 'oidc', provider: provider.name },
    });
    return user;
  });
  // A concurrent sign-up took the e-mail: the next attempt links or refuses as above.
  if (!created) throw new OidcRedirectError('server_error');
  return { user: created, outcome: 'sign_up' };
}

const identityClaims = (claims: ProviderClaims) => ({
  subject: claims.subject,
  email: claims.email,
  emailVerified: claims.emailVerified,
});

/**
 * An anonymous user who links a provider signs up with it: same id; the provider's verified
 * e-mail becomes theirs when no other user has it.
 */
async function leaveAnonymity(
  db: Knex,
  owner: Tenant,
  user: UserRow,
  claims: ProviderClaims,
  provider: string,
  client: ClientInfo,
): Promise<UserRow> {
  if (user.anonymous_since === null) return user;
  const converted =
    (claims.email && claims.emailVerified
      ? await convertAnonymous(db, owner, user.id, { email: claims.email, passwordHash: null, emailVerified: true })
      : null) ?? (await endAnonymity(db, owner, user.id));
  await recordEvents(db, owner, {
    type: 'anonymous_converted',
    userId: user.id,
    client,
    data: { method: 'oidc', provider },
  });
  return converted ?? user;
}
