import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { AUTH_EVENTS, withOutbox, type SignInEmailData } from '@platform/events';
import type { Logger } from '@platform/http';
import { AppError, randomToken, sha256Hex, type TenantContext } from '@platform/tenancy';
import { recordEvents } from '../audit/audit.service';
import type { Issuer } from '../issuer';
import { accountLocked, isLocked } from '../lockout/lockout.policy';
import { findLock, recordLoginFailure } from '../lockout/lockout.service';
import { finishPasswordlessSignIn } from '../sessions/passwordless-sign-in';
import type { ClientInfo } from '../shared/client';
import { takeAtLeast } from '../timing/take-at-least';
import { emailKey, normalizeEmail } from '../users/user-email';
import { userLocale } from '../users/user-locale';
import type { UserRow } from '../users/users.model';
import { findUserByEmail, insertUser, markEmailVerified } from '../users/users.service';
import {
  findByLink,
  findLatestUnused,
  insertEmailSignIn,
  markUsed,
  type EmailSignInRow,
} from './email-sign-in.repository';
import type { OtpVerifyInput } from './email-sign-in.schemas';

export const EMAIL_SIGN_IN_TTL_MS = 10 * 60_000;

export const OTP_SENT_MESSAGE = 'If this address can sign in, a link and a code are on their way';

/** The code's hash is bound to the e-mail, so one table row's hash says nothing about another's. */
const codeHash = (emailHash: string, code: string) => sha256Hex(`${emailHash}:${code}`);

const sixDigits = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Whether an address without an account may create one by signing in with a code (true unless the project says no). */
const signUpAllowed = (tenant: TenantContext) => tenant.settings.emailSignUp !== false;

function linkTo(appUrl: string, tenant: TenantContext, token: string): string {
  const configured = tenant.settings.appUrl;
  const base = typeof configured === 'string' && configured ? configured.replace(/\/+$/, '') : appUrl;
  return `${base}/sign-in?token=${encodeURIComponent(token)}`;
}

/**
 * Sends a sign-in link and a six-digit code (10 minutes, single use, hashes stored) through the
 * Mailer's `auth.sign-in.requested`, for an account or, when the project allows sign-up by
 * e-mail, for an address that has none yet. Every address gets the same answer in about the
 * same time (the forgot-password floor), whether or not anything was sent.
 */
export async function requestEmailSignIn(
  db: Knex,
  relay: { kick(): void },
  issuer: Issuer,
  floor: { minMs: number; logger: Logger },
  tenant: TenantContext,
  email: string,
  client: ClientInfo,
) {
  await takeAtLeast(floor.minMs, async () => {
    const user = await findUserByEmail(db, tenant, email);
    if (!user && !signUpAllowed(tenant)) return;
    if (user?.disabled_at) return;
    const token = randomToken('', 32);
    const code = sixDigits();
    const emailHash = emailKey(email);
    const expiresAt = new Date(issuer.clock.now() + EMAIL_SIGN_IN_TTL_MS);
    const locale = userLocale(user?.metadata);
    await withOutbox(db, relay, async (trx, outbox) => {
      await insertEmailSignIn(trx, tenant, {
        email: normalizeEmail(email),
        emailHash,
        linkHash: sha256Hex(token),
        codeHash: codeHash(emailHash, code),
        expiresAt,
      });
      await recordEvents(trx, tenant, { type: 'sign_in_code_sent', userId: user?.id ?? null, client });
      await outbox.write<SignInEmailData>({
        type: AUTH_EVENTS.signInRequested,
        tenantId: tenant.tenantId,
        projectId: tenant.projectId,
        data: {
          ...(user ? { userId: user.id } : {}),
          email: normalizeEmail(email),
          link: linkTo(issuer.appUrl, tenant, token),
          code,
          expiresAt: expiresAt.toISOString(),
          ...(locale ? { locale } : {}),
        },
      });
    });
  });
  return { success: true as const, message: OTP_SENT_MESSAGE };
}

const invalidCode = () => new AppError('INVALID_CREDENTIALS', 'The link or code is invalid, used or expired');

/** A link or code is usable while it is the e-mail's newest, unused and within its 10 minutes. */
const usable = (row: EmailSignInRow | null, now: number): row is EmailSignInRow =>
  row !== null && row.used_at === null && row.expires_at.getTime() > now;

/**
 * Signs in with the link's token or the e-mail and code; the account is created (its e-mail
 * verified) when it has none and the project allows sign-up by e-mail. A wrong code counts
 * toward the e-mail's lockout as a wrong password does, and a locked e-mail is refused (423)
 * whatever the code.
 */
export async function verifyEmailSignIn(
  db: Knex,
  issuer: Issuer,
  tenant: TenantContext,
  input: OtpVerifyInput,
  client: ClientInfo,
) {
  const byCode = 'code' in input;
  if (byCode) {
    const lockedUntil = await findLock(db, tenant, input.email);
    if (isLocked(lockedUntil)) {
      const user = await findUserByEmail(db, tenant, input.email);
      await recordEvents(db, tenant, {
        type: 'sign_in_failed',
        userId: user?.id ?? null,
        client,
        data: { method: 'email_code', reason: 'locked' },
      });
      throw accountLocked(lockedUntil);
    }
  }
  const now = issuer.clock.now();
  const redeemed = await db.transaction(async (trx) => {
    if (!byCode) {
      const row = await findByLink(trx, tenant, sha256Hex(input.token));
      if (!usable(row, now)) return null;
      await markUsed(trx, tenant, row.id);
      return row.email;
    }
    const emailHash = emailKey(input.email);
    const row = await findLatestUnused(trx, tenant, emailHash);
    if (!usable(row, now)) return null;
    const expected = Buffer.from(row.code_hash, 'hex');
    const given = Buffer.from(codeHash(emailHash, input.code), 'hex');
    if (!timingSafeEqual(expected, given)) return null;
    await markUsed(trx, tenant, row.id);
    return row.email;
  });
  if (!redeemed) {
    const user = byCode ? await findUserByEmail(db, tenant, input.email) : null;
    const locked = byCode ? await recordLoginFailure(db, tenant, input.email) : false;
    await recordEvents(
      db,
      tenant,
      {
        type: 'sign_in_failed',
        userId: user?.id ?? null,
        client,
        data: { method: 'email_code', reason: byCode ? 'wrong_code' : 'bad_link' },
      },
      ...(locked ? [{ type: 'lockout' as const, userId: user?.id ?? null, client }] : []),
    );
    throw invalidCode();
  }
  const { user, created } = await accountFor(db, tenant, redeemed, client);
  return finishPasswordlessSignIn(db, issuer, tenant, user, {
    method: 'email_code',
    detail: { via: byCode ? 'code' : 'link' },
    client,
    created,
  });
}

/** The account of the e-mail, or a new one with the e-mail verified (the code proved it). */
async function accountFor(
  db: Knex,
  tenant: TenantContext,
  email: string,
  client: ClientInfo,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(db, tenant, email);
  if (existing) {
    if (!existing.email_verified) await markEmailVerified(db, tenant, existing.id);
    return { user: { ...existing, email_verified: true }, created: false };
  }
  if (!signUpAllowed(tenant)) throw invalidCode();
  const created = await db.transaction(async (trx) => {
    const user = await insertUser(trx, tenant, { email, passwordHash: null, metadata: {}, emailVerified: true });
    if (user) {
      await recordEvents(trx, tenant, { type: 'sign_up', userId: user.id, client, data: { method: 'email_code' } });
    }
    return user;
  });
  // A concurrent sign-up of the same address won the race: sign in to that account.
  if (!created) return { user: (await findUserByEmail(db, tenant, email))!, created: false };
  return { user: created, created: true };
}
