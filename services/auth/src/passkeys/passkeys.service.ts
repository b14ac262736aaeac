import type { Knex } from 'knex';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Tenant } from '@platform/db';
import { AppError, errors, type AccessTokenClaims, type ProjectSettings, type TenantContext } from '@platform/tenancy';
import { recordEvents } from '../audit/audit.service';
import type { Issuer } from '../issuer';
import { accountLocked, isLocked } from '../lockout/lockout.policy';
import { findLock } from '../lockout/lockout.service';
import { lockoutSubject } from '../users/user-email';
import { accessTokenFor, startSession } from '../sessions/session-tokens';
import type { Actor, ClientInfo } from '../shared/client';
import { toUser } from '../users/users.mapper';
import { findUserByEmail, findUserById, markSignedIn } from '../users/users.service';
import { PASSKEY_CHALLENGE_TTL_MS, toPasskey } from './passkeys.model';
import * as repo from './passkeys.repository';

export interface PasskeyDeps {
  db: Knex;
  issuer: Issuer;
}

/** The relying party of a project: its appUrl's host names it; that origin and allowedOrigins may use it. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function relyingPartyOf(settings: ProjectSettings, issuer: Issuer): RelyingParty {
  const appUrl = new URL(settings.appUrl ?? issuer.appUrl);
  const origins = [appUrl.origin, ...(settings.allowedOrigins ?? []).map(originOf)];
  return {
    id: appUrl.hostname,
    name: appUrl.hostname,
    origins: [...new Set(origins.filter((o): o is string => o !== null && o !== 'null'))],
  };
}

const tenantOfRow = (claims: AccessTokenClaims): Tenant => ({ tenantId: claims.tenantId, projectId: claims.projectId });
const passkeyNotFound = () => errors.notFound('Passkey');
const ceremonyInvalid = () => errors.validation('The passkey challenge is unknown, used or expired; start again');
const signInRefused = () => new AppError('INVALID_CREDENTIALS', 'The passkey could not be verified');
const transportsOf = (t: string[]) => t as AuthenticatorTransport[];
const expiry = () => new Date(Date.now() + PASSKEY_CHALLENGE_TTL_MS);

/** Options for navigator.credentials.create: a resident key with user verification, none of the user's existing ones. */
export async function registrationOptions(deps: PasskeyDeps, tenant: TenantContext, claims: AccessTokenClaims) {
  const user = await findUserById(deps.db, tenantOfRow(claims), claims.userId);
  if (!user) throw errors.invalidSession();
  const rp = relyingPartyOf(tenant.settings, deps.issuer);
  const existing = await repo.listPasskeys(deps.db, tenant, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new TextEncoder().encode(user.id),
    userName: user.email ?? user.id,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const challengeId = await repo.insertChallenge(deps.db, tenant, {
    kind: 'registration',
    userId: user.id,
    challenge: options.challenge,
    expiresAt: expiry(),
  });
  return { challengeId, options };
}

export async function verifyRegistration(
  deps: PasskeyDeps,
  tenant: TenantContext,
  claims: AccessTokenClaims,
  input: { challengeId: string; response: RegistrationResponseJSON; name?: string },
  actor: Actor,
) {
  const challenge = await repo.takeChallenge(deps.db, tenant, input.challengeId, 'registration');
  if (!challenge || challenge.user_id !== claims.userId) throw ceremonyInvalid();
  const rp = relyingPartyOf(tenant.settings, deps.issuer);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (err) {
    throw errors.validation(`The passkey was refused: ${(err as Error).message}`);
  }
  if (!verification.verified) throw errors.validation('The passkey was refused');
  const info = verification.registrationInfo;
  const created = await deps.db.transaction(async (trx) => {
    const row = await repo.insertPasskey(trx, tenant, {
      userId: claims.userId,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      signCount: info.credential.counter,
      transports: info.credential.transports ?? input.response.response.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name: input.name ?? 'Passkey',
    });
    if (!row) return null;
    await recordEvents(trx, tenant, {
      type: 'passkey_added',
      userId: claims.userId,
      ...actor,
      data: { passkeyId: row.id },
    });
    return row;
  });
  if (!created) throw errors.conflict('This passkey is already registered');
  return { passkey: toPasskey(created) };
}

/**
 * Options for navigator.credentials.get. Without an e-mail the browser offers the discoverable
 * credentials it holds for the RP; with one, the user's passkeys are listed (none for an unknown
 * e-mail, so the answer does not tell whether the account exists).
 */
export async function authenticationOptions(deps: PasskeyDeps, tenant: TenantContext, email?: string) {
  const rp = relyingPartyOf(tenant.settings, deps.issuer);
  const user = email === undefined ? null : await findUserByEmail(deps.db, tenant, email);
  const allowed = user ? await repo.listPasskeys(deps.db, tenant, user.id) : [];
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    allowCredentials: allowed.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
  });
  const challengeId = await repo.insertChallenge(deps.db, tenant, {
    kind: 'authentication',
    userId: user?.id ?? null,
    challenge: options.challenge,
    expiresAt: expiry(),
  });
  return { challengeId, options };
}

/** Signs in with a passkey: a new session with method `passkey` at `aal2`, and its tokens. */
export async function verifyAuthentication(
  deps: PasskeyDeps,
  tenant: TenantContext,
  input: { challengeId: string; response: AuthenticationResponseJSON },
  client: ClientInfo,
) {
  const { db } = deps;
  const challenge = await repo.takeChallenge(db, tenant, input.challengeId, 'authentication');
  if (!challenge) throw ceremonyInvalid();
  const passkey = await repo.findByCredentialId(db, tenant, input.response.id);
  // A ceremony started for an e-mail is good only for that user's passkeys.
  if (!passkey || (challenge.user_id !== null && challenge.user_id !== passkey.user_id)) throw signInRefused();
  const user = await findUserById(db, tenant, passkey.user_id);
  if (!user) throw signInRefused();
  const until = await findLock(db, tenant, lockoutSubject(user));
  if (isLocked(until)) throw accountLocked(until);
  if (user.disabled_at) throw errors.forbidden('This account is disabled');
  const rp = relyingPartyOf(tenant.settings, deps.issuer);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.sign_count),
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: true,
    });
  } catch {
    verification = null;
  }
  if (!verification?.verified) {
    await recordEvents(db, tenant, {
      type: 'sign_in_failed',
      userId: user.id,
      client,
      data: { reason: 'passkey_invalid', passkeyId: passkey.id },
    });
    throw signInRefused();
  }
  const info = verification.authenticationInfo;
  const outcome = await db.transaction(async (trx) => {
    await repo.markUsed(trx, tenant, passkey.id, {
      signCount: info.newCounter,
      backedUp: info.credentialBackedUp,
      deviceType: info.credentialDeviceType,
    });
    const signedIn = (await markSignedIn(trx, tenant, user.id)) ?? user;
    const started = await startSession(trx, tenant, signedIn, { method: 'passkey', aal: 'aal2', client });
    await recordEvents(trx, tenant, {
      type: 'sign_in',
      userId: user.id,
      client,
      sessionId: started.session.id,
      data: { method: 'passkey', aal: 'aal2', passkeyId: passkey.id },
    });
    return { user: signedIn, ...started };
  });
  return {
    success: true as const,
    user: toUser(outcome.user),
    accessToken: accessTokenFor(deps.issuer.signer, tenant, outcome.user, outcome.session),
    refreshToken: outcome.refreshToken,
  };
}

export async function listPasskeys(db: Knex, claims: AccessTokenClaims) {
  return { passkeys: (await repo.listPasskeys(db, tenantOfRow(claims), claims.userId)).map(toPasskey) };
}

export async function renamePasskey(db: Knex, claims: AccessTokenClaims, id: string, name: string) {
  const row = await repo.renamePasskey(db, tenantOfRow(claims), claims.userId, id, name);
  if (!row) throw passkeyNotFound();
  return { passkey: toPasskey(row) };
}

export async function removePasskey(db: Knex, claims: AccessTokenClaims, id: string, actor: Actor) {
  const tenant = tenantOfRow(claims);
  const removed = await db.transaction(async (trx) => {
    if (!(await repo.deletePasskey(trx, tenant, claims.userId, id))) return false;
    await recordEvents(trx, tenant, {
      type: 'passkey_removed',
      userId: claims.userId,
      ...actor,
      data: { passkeyId: id },
    });
    return true;
  });
  if (!removed) throw passkeyNotFound();
  return { success: true as const, message: 'Passkey removed' };
}
