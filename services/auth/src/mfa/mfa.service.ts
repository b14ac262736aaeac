import type { Knex } from 'knex';
import QRCode from 'qrcode';
import type { Tenant } from '@platform/db';
import { AppError, errors, type AccessTokenClaims, type TenantContext } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import { recordEvents } from '../audit/audit.service';
import type { Issuer } from '../issuer';
import { accountLocked, isLocked } from '../lockout/lockout.policy';
import { clearLoginFailures, findLock, recordLoginFailure } from '../lockout/lockout.service';
import { lockoutSubject } from '../users/user-email';
import { accessTokenFor, enrollmentOnly, startSession } from '../sessions/session-tokens';
import type { Actor, ClientInfo } from '../shared/client';
import { toUser } from '../users/users.mapper';
import type { UserRow } from '../users/users.model';
import { findUserById, markSignedIn } from '../users/users.service';
import { toFactor } from './mfa.mapper';
import { CHALLENGE_TTL_MS } from './mfa.model';
import * as repo from './mfa.repository';
import { generateRecoveryCodes, hashRecoveryCode } from './recovery-codes';
import { generateTotpSecret, matchTotp, otpauthUri } from './totp';

/** What the MFA endpoints need besides the database. */
export interface MfaDeps {
  db: Knex;
  secrets: SecretBox;
  issuer: Issuer;
}

const tenantOfRow = (claims: AccessTokenClaims): Tenant => ({ tenantId: claims.tenantId, projectId: claims.projectId });
const factorNotFound = () => errors.notFound('Factor');
const wrongCode = () => new AppError('INVALID_CREDENTIALS', 'The code is wrong or was already used');

async function signedInUser(db: Knex, claims: AccessTokenClaims): Promise<UserRow> {
  const user = await findUserById(db, tenantOfRow(claims), claims.userId);
  if (!user) throw errors.invalidSession();
  return user;
}

/** Whether the user must answer a second factor after the password. */
export async function hasActiveFactor(db: Knex, tenant: Tenant, userId: string): Promise<boolean> {
  return (await repo.findActiveFactor(db, tenant, userId)) !== null;
}

/** Starts a TOTP enrolment: a new secret (sealed at rest), its otpauth:// URI and a QR code of it. */
export async function enrollTotp(deps: MfaDeps, claims: AccessTokenClaims) {
  const tenant = tenantOfRow(claims);
  const user = await signedInUser(deps.db, claims);
  if (await repo.findActiveFactor(deps.db, tenant, user.id)) {
    throw new AppError('CONFLICT', 'A TOTP factor is already active; remove it first');
  }
  const secret = generateTotpSecret();
  const factor = await repo.insertPendingFactor(deps.db, tenant, user.id, deps.secrets.encrypt(secret));
  const uri = otpauthUri(new URL(deps.issuer.appUrl).host, user.email ?? user.id, secret);
  const qrCodeSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { factor: toFactor(factor), secret, otpauthUri: uri, qrCodeSvg };
}

/**
 * Activates a pending factor with a first code from the authenticator, and returns the ten
 * recovery codes, shown this once.
 */
export async function activateTotp(deps: MfaDeps, claims: AccessTokenClaims, id: string, code: string, actor: Actor) {
  const tenant = tenantOfRow(claims);
  const outcome = await deps.db.transaction(async (trx) => {
    const factor = await repo.findFactor(trx, tenant, claims.userId, id, { forUpdate: true });
    if (!factor) throw factorNotFound();
    if (factor.status === 'active') throw new AppError('CONFLICT', 'The factor is already active');
    const step = matchTotp(deps.secrets.decrypt(factor.secret_sealed), code);
    if (step === null) return null;
    const active = await repo.activateFactor(trx, tenant, factor.id, step);
    const { codes, hashes } = generateRecoveryCodes();
    await repo.replaceRecoveryCodes(trx, tenant, claims.userId, hashes);
    await recordEvents(trx, tenant, {
      type: 'mfa_enrolled',
      userId: claims.userId,
      ...actor,
      data: { factorId: factor.id, factorType: 'totp' },
    });
    return { factor: toFactor(active), recoveryCodes: codes };
  });
  if (!outcome) throw errors.validation('The code is wrong: enter the current code from the authenticator app');
  return { success: true as const, ...outcome };
}

export async function listFactors(db: Knex, claims: AccessTokenClaims) {
  const tenant = tenantOfRow(claims);
  const rows = await repo.listFactors(db, tenant, claims.userId);
  return {
    factors: rows.map(toFactor),
    recoveryCodesRemaining: await repo.countUnusedRecoveryCodes(db, tenant, claims.userId),
  };
}

export interface SecondFactorInput {
  code?: string;
  recoveryCode?: string;
}

type Proof = 'totp' | 'recovery_code';

/** Checks a TOTP code (each at most once) or uses up a recovery code, in the caller's transaction. */
async function proveSecondFactor(
  trx: Knex.Transaction,
  secrets: SecretBox,
  tenant: Tenant,
  userId: string,
  input: SecondFactorInput,
): Promise<Proof | null> {
  if (input.recoveryCode !== undefined) {
    return (await repo.useRecoveryCode(trx, tenant, userId, hashRecoveryCode(input.recoveryCode)))
      ? 'recovery_code'
      : null;
  }
  const factor = await repo.findActiveFactor(trx, tenant, userId, { forUpdate: true });
  if (!factor || input.code === undefined) return null;
  const afterStep = factor.last_used_step === null ? null : Number(factor.last_used_step);
  const step = matchTotp(secrets.decrypt(factor.secret_sealed), input.code, { afterStep });
  if (step === null) return null;
  await repo.markStepUsed(trx, tenant, factor.id, step);
  return 'totp';
}

/** A wrong second factor counts toward the email's lockout like a wrong password, and is recorded. */
async function failSecondFactor(db: Knex, tenant: Tenant, user: UserRow, client: ClientInfo): Promise<never> {
  const locked = await recordLoginFailure(db, tenant, lockoutSubject(user));
  await recordEvents(
    db,
    tenant,
    { type: 'mfa_challenge_failed', userId: user.id, client },
    ...(locked ? [{ type: 'lockout' as const, userId: user.id, client }] : []),
  );
  throw wrongCode();
}

async function refuseWhenLocked(db: Knex, tenant: Tenant, user: UserRow): Promise<void> {
  const until = await findLock(db, tenant, lockoutSubject(user));
  if (isLocked(until)) throw accountLocked(until);
}

/** Runs `change` only after a fresh second factor (a current code or a recovery code). */
async function withSecondFactor<T>(
  deps: MfaDeps,
  claims: AccessTokenClaims,
  input: SecondFactorInput,
  actor: Actor,
  change: (trx: Knex.Transaction, user: UserRow, proof: Proof) => Promise<T>,
): Promise<T> {
  const tenant = tenantOfRow(claims);
  const user = await signedInUser(deps.db, claims);
  await refuseWhenLocked(deps.db, tenant, user);
  const outcome = await deps.db.transaction(async (trx) => {
    const proof = await proveSecondFactor(trx, deps.secrets, tenant, user.id, input);
    if (!proof) return null;
    if (proof === 'recovery_code') {
      await recordEvents(trx, tenant, { type: 'recovery_code_used', userId: user.id, ...actor });
    }
    return { value: await change(trx, user, proof) };
  });
  if (!outcome) return failSecondFactor(deps.db, tenant, user, actor.client);
  return outcome.value;
}

/** Removes a factor; an active one only with a fresh second factor. The last one takes the recovery codes along. */
export async function removeFactor(
  deps: MfaDeps,
  claims: AccessTokenClaims,
  id: string,
  input: SecondFactorInput,
  actor: Actor,
) {
  const tenant = tenantOfRow(claims);
  const factor = await repo.findFactor(deps.db, tenant, claims.userId, id);
  if (!factor) throw factorNotFound();
  const remove = async (trx: Knex.Transaction) => {
    await repo.deleteFactor(trx, tenant, factor.id);
    if (factor.status === 'active') {
      if (!(await repo.findActiveFactor(trx, tenant, claims.userId))) {
        await repo.replaceRecoveryCodes(trx, tenant, claims.userId, []);
      }
      await recordEvents(trx, tenant, {
        type: 'mfa_removed',
        userId: claims.userId,
        ...actor,
        data: { factorId: factor.id, factorType: factor.type },
      });
    }
  };
  if (factor.status === 'pending') await deps.db.transaction(remove);
  else await withSecondFactor(deps, claims, input, actor, remove);
  return { success: true as const, message: 'Factor removed' };
}

/** New recovery codes (the old ones die), with a fresh second factor. */
export async function regenerateRecoveryCodes(
  deps: MfaDeps,
  claims: AccessTokenClaims,
  input: SecondFactorInput,
  actor: Actor,
) {
  return withSecondFactor(deps, claims, input, actor, async (trx, user) => {
    if (!(await repo.findActiveFactor(trx, tenantOfRow(claims), user.id))) {
      throw new AppError('CONFLICT', 'No active factor: enroll one first');
    }
    const { codes, hashes } = generateRecoveryCodes();
    await repo.replaceRecoveryCodes(trx, tenantOfRow(claims), user.id, hashes);
    return { success: true as const, recoveryCodes: codes };
  });
}

/** The answer to a right password when a factor is active: a challenge instead of tokens. */
export async function startChallenge(db: Knex, tenant: Tenant, user: UserRow) {
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS);
  const challengeId = await repo.insertChallenge(db, tenant, user.id, expiresAt);
  const factors = (await repo.listFactors(db, tenant, user.id)).filter((f) => f.status === 'active');
  return {
    success: true as const,
    mfaRequired: true as const,
    challengeId,
    expiresAt: expiresAt.toISOString(),
    factors: factors.map((f) => ({ id: f.id, type: f.type })),
  };
}

const challengeInvalid = () => errors.invalidSession('The MFA challenge is unknown, used or expired; sign in again');

/** Completes a password sign-in with a TOTP or recovery code: an aal2 session and its tokens. */
export async function verifyChallenge(
  deps: MfaDeps,
  tenant: TenantContext,
  input: SecondFactorInput & { challengeId: string },
  client: ClientInfo,
) {
  const { db } = deps;
  const pending = await db.transaction((trx) => repo.findChallenge(trx, tenant, input.challengeId));
  if (!pending || pending.used_at || pending.expires_at.getTime() <= Date.now()) throw challengeInvalid();
  const user = await findUserById(db, tenant, pending.user_id);
  if (!user) throw challengeInvalid();
  await refuseWhenLocked(db, tenant, user);
  const outcome = await db.transaction(async (trx) => {
    const challenge = await repo.findChallenge(trx, tenant, input.challengeId);
    if (!challenge || challenge.used_at) return { kind: 'invalid' as const };
    const proof = await proveSecondFactor(trx, deps.secrets, tenant, user.id, input);
    if (!proof) return { kind: 'wrong' as const };
    await repo.markChallengeUsed(trx, tenant, challenge.id);
    const signedIn = (await markSignedIn(trx, tenant, user.id)) ?? user;
    await clearLoginFailures(trx, tenant, lockoutSubject(user));
    const started = await startSession(trx, tenant, signedIn, { method: 'mfa', aal: 'aal2', client });
    await recordEvents(
      trx,
      tenant,
      ...(proof === 'recovery_code' ? [{ type: 'recovery_code_used' as const, userId: user.id, client }] : []),
      {
        type: 'sign_in',
        userId: user.id,
        client,
        sessionId: started.session.id,
        data: { method: 'mfa', aal: 'aal2', factor: proof },
      },
    );
    return { kind: 'signed_in' as const, user: signedIn, ...started };
  });
  if (outcome.kind === 'invalid') throw challengeInvalid();
  if (outcome.kind === 'wrong') return failSecondFactor(db, tenant, user, client);
  const session = { ...outcome.session, enrollmentOnly: enrollmentOnly(tenant.settings, outcome.session.aal) };
  return {
    success: true as const,
    user: toUser(outcome.user),
    accessToken: accessTokenFor(deps.issuer.signer, tenant, outcome.user, session),
    refreshToken: outcome.refreshToken,
  };
}
