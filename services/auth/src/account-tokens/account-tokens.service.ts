import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { AUTH_EVENTS, withOutbox, type AuthEmailData } from '@platform/events';
import { AppError, errors, randomToken, sha256Hex, type ProjectSettings } from '@platform/tenancy';
import { userLocale } from '../users/user-locale';
import {
  findAccountToken,
  findTokenOwner,
  insertAccountToken,
  markAccountTokenUsed,
  type AccountTokenPurpose,
  type AccountTokenRow,
} from './account-tokens.repository';

export type { AccountTokenPurpose } from './account-tokens.repository';

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

type ProjectTenant = Tenant & { settings: ProjectSettings };

/** `<project appUrl, else APP_URL>/<page>?token=...`: the page of the customer's app that calls us back. */
function linkTo(appUrl: string, settings: ProjectSettings, page: string, token: string): string {
  const base = typeof settings.appUrl === 'string' && settings.appUrl ? settings.appUrl.replace(/\/+$/, '') : appUrl;
  return `${base}/${page}?token=${encodeURIComponent(token)}`;
}

/**
 * Makes a single-use token for the user inside the caller's transaction and returns the link
 * that carries it. Only the hash is stored; the token lives on only in the link (the outbox
 * event for the Mailer), never in a log line.
 */
export async function issueAccountLink(
  trx: Knex.Transaction,
  tenant: ProjectTenant,
  userId: string,
  purpose: AccountTokenPurpose,
  appUrl: string,
): Promise<IssuedLink> {
  const token = randomToken('', 32);
  const expiresAt = new Date(Date.now() + PURPOSES[purpose].ttlMs);
  await insertAccountToken(trx, tenant, { userId, purpose, tokenHash: sha256Hex(token), expiresAt });
  return { link: linkTo(appUrl, tenant.settings, PURPOSES[purpose].page, token), expiresAt: expiresAt.toISOString() };
}

/**
 * Issues a link and, in the same transaction, the outbox event (`auth.verification.requested`
 * or `auth.password-reset.requested`) that asks the Mailer to send it.
 */
export async function emailAccountLink(
  db: Knex,
  relay: { kick(): void },
  tenant: ProjectTenant,
  user: { id: string; email: string; metadata?: Record<string, unknown> },
  purpose: AccountTokenPurpose,
  appUrl: string,
): Promise<void> {
  const locale = userLocale(user.metadata);
  await withOutbox(db, relay, async (trx, outbox) => {
    const { link, expiresAt } = await issueAccountLink(trx, tenant, user.id, purpose, appUrl);
    await outbox.write<AuthEmailData>({
      type: PURPOSES[purpose].event,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      data: { userId: user.id, email: user.email, link, expiresAt, ...(locale ? { locale } : {}) },
    });
  });
}

/** The project a token belongs to, found by the token alone (verify-email may come without keys). */
export function ownerOfToken(db: Knex, purpose: AccountTokenPurpose, token: string): Promise<Tenant | null> {
  return findTokenOwner(db, purpose, sha256Hex(token));
}

/**
 * Unknown or already used: 400; past its lifetime: the error `expired` gives (the two
 * purposes answer differently, see their services).
 */
function usable(record: AccountTokenRow | null, expired: () => AppError): AccountTokenRow {
  if (!record || record.used_at) throw errors.validation('Token is invalid or has already been used');
  if (record.expires_at.getTime() <= Date.now()) throw expired();
  return record;
}

/** Checks a token without using it up (to refuse a bad one before any expensive work). */
export async function checkAccountToken(
  db: Knex,
  tenant: Tenant,
  purpose: AccountTokenPurpose,
  token: string,
  expired: () => AppError,
): Promise<AccountTokenRow> {
  return usable(await findAccountToken(db, tenant, purpose, sha256Hex(token)), expired);
}

/** Uses up a token inside the caller's transaction; a concurrent second use waits, then fails. */
export async function redeemAccountToken(
  trx: Knex.Transaction,
  tenant: Tenant,
  purpose: AccountTokenPurpose,
  token: string,
  expired: () => AppError,
): Promise<AccountTokenRow> {
  const record = usable(await findAccountToken(trx, tenant, purpose, sha256Hex(token), { forUpdate: true }), expired);
  await markAccountTokenUsed(trx, tenant, record.id);
  return record;
}
