import type { AccessTokenClaims } from '@platform/tenancy';
import { errors, toIso, type TenantContext } from '@platform/tenancy';
import { recordEvents } from '../audit/audit.service';
import type { Actor } from '../shared/client';
import { findUserById } from '../users/users.service';
import { countPasskeys, deleteIdentity, listIdentities, type IdentityRow } from './identities.repository';
import type { OidcContext } from './oidc-context';
import { checkRedirectTo, startAuthorization } from './oidc-sign-in.service';
import { OidcRedirectError } from './oidc.errors';

const ownerOf = (claims: AccessTokenClaims) => ({ tenantId: claims.tenantId, projectId: claims.projectId });

const toIdentity = (row: IdentityRow) => ({
  id: row.id,
  provider: row.provider,
  email: row.email,
  emailVerified: row.email_verified,
  createdAt: toIso(row.created_at)!,
  lastSignInAt: toIso(row.last_sign_in_at),
});

/** The signed-in user's provider identities, and whether they also have a password. */
export async function listMyIdentities(ctx: OidcContext, claims: AccessTokenClaims) {
  const owner = ownerOf(claims);
  const user = await findUserById(ctx.db, owner, claims.userId);
  if (!user) throw errors.invalidSession();
  const rows = await listIdentities(ctx.db, owner, user.id);
  return { success: true as const, identities: rows.map(toIdentity), hasPassword: user.password_hash !== null };
}

/**
 * Starts linking a provider to the signed-in user: the answer's URL goes to the provider, whose
 * callback ends on `redirectTo` with a one-time code as a sign-in does.
 */
export async function startLinking(
  ctx: OidcContext,
  tenant: TenantContext,
  claims: AccessTokenClaims,
  input: { provider: string; redirectTo: string; codeChallenge: string },
) {
  checkRedirectTo(tenant, input.redirectTo);
  try {
    const { url } = await startAuthorization(ctx, tenant, { ...input, linkUserId: claims.userId });
    return { success: true as const, authorizeUrl: url };
  } catch (error) {
    if (!(error instanceof OidcRedirectError)) throw error;
    if (error.code === 'provider_not_found') throw errors.notFound('Provider');
    throw errors.unavailable('The provider cannot be reached now; try again');
  }
}

/** Removes one of the user's identities, unless nothing else (a password, another identity, a passkey) would sign them in. */
export async function unlinkIdentity(ctx: OidcContext, claims: AccessTokenClaims, id: string, actor: Actor) {
  const owner = ownerOf(claims);
  const user = await findUserById(ctx.db, owner, claims.userId);
  if (!user) throw errors.invalidSession();
  const identities = await listIdentities(ctx.db, owner, user.id);
  const identity = identities.find((row) => row.id === id);
  if (!identity) throw errors.notFound('Identity');
  const otherWays =
    (user.password_hash !== null ? 1 : 0) + (identities.length - 1) + (await countPasskeys(ctx.db, owner, user.id));
  if (otherWays === 0)
    throw errors.conflict('This is the last way to sign in: add a password or another provider first');
  await deleteIdentity(ctx.db, owner, user.id, id);
  await recordEvents(ctx.db, owner, {
    type: 'identity_unlinked',
    userId: user.id,
    client: actor.client,
    sessionId: actor.sessionId ?? null,
    data: { provider: identity.provider },
  });
}
