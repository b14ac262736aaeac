import type { Knex } from 'knex';
import { AUTH_EVENTS, writeEvent, type AuthEmailData } from '@platform/events';
import { AppError, errors, randomToken, sha256Hex, type ProjectSettings } from '@platform/tenancy';
import type { AuthContext, Tenant } from '../context';
import { userLocale } from '../users/user-locale';
import {
  findAccountToken,
  insertAccountToken,
  markAccountTokenUsed,
  type AccountTokenPurpose,
  type AccountTokenRecord,
} from './account-tokens.repository';

export const VERIFY_TOKEN_TTL_MS = 24 * 3600_000;
export const RESET_TOKEN_TTL_MS = 3600_000;

const PURPOSES: Record<AccountTokenPurpose, { ttlMs: number; page: string; event: string }> = {
  verify_email: { ttlMs: VERIFY_TOKEN_TTL_MS, page: 'verify-email', event: AUTH_EVENTS.verificationRequested },
  reset_password: { ttlMs: RESET_TOKEN_TTL_MS, page: 'reset-password', event: AUTH_EVENTS.passwordResetRequested },
};

export interface IssuedLink {
  link: string;
  expiresAt: string;
}

/** `<project appUrl, else APP_URL>/<page>?token=...`: the page of the customer's app that calls us back. */
function linkTo(ctx: AuthContext, settings: ProjectSettings, page: string, token: string): string {
  const base =
    typeof settings.appUrl === 'string' && settings.appUrl ? settings.appUrl.replace(/\/+$/, '') : ctx.config.appUrl;
  return `${base}/${page}?token=${encodeURIComponent(token)}`;
}

/**
 * Makes a single-use token for the user inside the caller's transaction and returns the link
 * that carries it. Only the hash is stored; the token lives on only in the link (the outbox
 * event for the Mailer), never in a log line.
 */
export async function issueAccountLink(
  trx: Knex.Transaction,
  ctx: AuthContext,
  tenant: Tenant & { settings: ProjectSettings },
  userId: string,
  purpose: AccountTokenPurpose,
): Promise<IssuedLink> {
  const token = randomToken('', 32);
  const expiresAt = new Date(Date.now() + PURPOSES[purpose].ttlMs);
  await insertAccountToken(trx, tenant, { userId, purpose, tokenHash: sha256Hex(token), expiresAt });
  return { link: linkTo(ctx, tenant.settings, PURPOSES[purpose].page, token), expiresAt: expiresAt.toISOString() };
}

/**
 * Issues a link and, in the same transaction, the outbox event (`auth.verification.requested`
 * or `auth.password-reset.requested`) that asks the Mailer to send it; then wakes the relay.
 */
export async function emailAccountLink(
  ctx: AuthContext,
  tenant: Tenant & { settings: ProjectSettings },
  user: { id: string; email: string; metadata?: Record<string, unknown> },
  purpose: AccountTokenPurpose,
): Promise<void> {
  const locale = userLocale(user.metadata);
  await ctx.db.transaction(async (trx) => {
    const { link, expiresAt } = await issueAccountLink(trx, ctx, tenant, user.id, purpose);
    await writeEvent<AuthEmailData>(trx, {
      type: PURPOSES[purpose].event,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      data: { userId: user.id, email: user.email, link, expiresAt, ...(locale ? { locale } : {}) },
    });
  });
  ctx.relay.kick();
}

/**
 * Unknown or already used: 400; past its lifetime: the error `expired` gives (the two
 * purposes answer differently, see their services).
 */
function usable(record: AccountTokenRecord | null, expired: () => AppError): AccountTokenRecord {
  if (!record || record.usedAt) throw errors.validation('Token is invalid or has already been used');
  if (record.expiresAt.getTime() <= Date.now()) throw expired();
  return record;
}

/** Checks a token without using it up (to refuse a bad one before any expensive work). */
export async function checkAccountToken(
  db: Knex,
  tenant: Tenant,
  purpose: AccountTokenPurpose,
  token: string,
  expired: () => AppError,
): Promise<AccountTokenRecord> {
  return usable(await findAccountToken(db, tenant, purpose, sha256Hex(token)), expired);
}

/** Uses up a token inside the caller's transaction; a concurrent second use waits, then fails. */
export async function redeemAccountToken(
  trx: Knex.Transaction,
  tenant: Tenant,
  purpose: AccountTokenPurpose,
  token: string,
  expired: () => AppError,
): Promise<AccountTokenRecord> {
  const record = usable(await findAccountToken(trx, tenant, purpose, sha256Hex(token), { forUpdate: true }), expired);
  await markAccountTokenUsed(trx, tenant, record.id);
  return record;
}
