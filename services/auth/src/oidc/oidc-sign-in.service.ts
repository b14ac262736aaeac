import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { AppError, errors, randomToken, sha256Hex, type TenantContext } from '@platform/tenancy';
import { recordEvents } from '../audit/audit.service';
import { finishPasswordlessSignIn } from '../sessions/passwordless-sign-in';
import type { ClientInfo } from '../shared/client';
import { endSessions } from '../user-sessions/user-sessions.service';
import { findUserById } from '../users/users.service';
import { claimsOf, IdTokenRejected, verifyIdToken, type ProviderClaims } from './id-token';
import { callIssuer, IssuerCallError } from './issuer-http';
import type { IssuerMetadata } from './issuer-metadata';
import type { OidcContext } from './oidc-context';
import { appRedirect, OidcRedirectError, providerErrorCode } from './oidc.errors';
import {
  findAuthorizationCode,
  findFlow,
  insertAuthorizationCode,
  insertFlow,
  markCodeReplayed,
  markCodeUsed,
  markFlowUsed,
  recordCodeSession,
  type AuthorizationCodeRow,
  type OidcFlowRow,
} from './oidc-flows.repository';
import { findProvider, findProviderById, type OidcProviderRow } from './providers.repository';
import { resolveAccount } from './provider-accounts';

export const FLOW_TTL_MS = 10 * 60_000;
export const APP_CODE_TTL_MS = 5 * 60_000;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** An issuer call under the project's share of slots; none free is `temporarily_unavailable`. */
async function withSlot<T>(ctx: OidcContext, owner: Tenant, work: () => Promise<T>): Promise<T> {
  const release = ctx.slots.tryAcquire(owner.projectId);
  if (!release) throw new OidcRedirectError('temporarily_unavailable');
  try {
    return await work();
  } catch (error) {
    if (error instanceof IssuerCallError) throw new OidcRedirectError('temporarily_unavailable');
    throw error;
  } finally {
    release();
  }
}

/** 400 rather than a redirect: only a URL in the project's list may receive the browser. */
export function checkRedirectTo(tenant: TenantContext, redirectTo: string): void {
  const allowed = tenant.settings.allowedRedirectUrls;
  if (!Array.isArray(allowed) || !allowed.includes(redirectTo)) {
    throw errors.validation('redirect_to is not one of the allowed redirect URLs of the project', [
      { path: 'redirect_to', message: 'not in allowedRedirectUrls' },
    ]);
  }
}

export interface AuthorizationRequest {
  provider: string;
  redirectTo: string;
  codeChallenge: string;
  /** Linking a provider to this signed-in user instead of signing in. */
  linkUserId?: string;
}

/**
 * Starts a provider sign-in: the flow (state and nonce, our PKCE verifier, the app's PKCE
 * challenge, where to send the browser back) is stored for 10 minutes and the provider's
 * authorization URL returned. `redirect_to` was checked by the caller.
 */
export async function startAuthorization(
  ctx: OidcContext,
  tenant: TenantContext,
  request: AuthorizationRequest,
): Promise<{ url: string; flowId: string }> {
  const provider = await findProvider(ctx.db, tenant, request.provider);
  if (!provider) throw new OidcRedirectError('provider_not_found');
  const metadata = await withSlot(ctx, tenant, () => ctx.issuers.discover(provider.issuer));
  const state = randomToken('', 32);
  const nonce = randomToken('', 32);
  const codeVerifier = randomBytes(32).toString('base64url');
  const flowId = await insertFlow(ctx.db, tenant, {
    provider_id: provider.id,
    state_hash: sha256Hex(state),
    nonce,
    code_verifier: codeVerifier,
    redirect_to: request.redirectTo,
    app_code_challenge: request.codeChallenge,
    link_user_id: request.linkUserId ?? null,
    expires_at: new Date(ctx.issuer.clock.now() + FLOW_TTL_MS),
  });
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.client_id);
  url.searchParams.set('redirect_uri', ctx.callbackUrl);
  url.searchParams.set('scope', provider.scopes.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  url.searchParams.set('code_challenge', s256(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { url: url.toString(), flowId };
}

export interface CallbackQuery {
  state?: unknown;
  code?: unknown;
  error?: unknown;
  iss?: unknown;
}

/** Takes the flow out of play (single use) and tells whether the callback's state is its own. */
async function claimFlow(
  db: Knex,
  flowCookie: string | undefined,
  state: string | undefined,
  now: number,
): Promise<{ flow: OidcFlowRow; owner: Tenant; problem: string | null } | null> {
  return db.transaction(async (trx) => {
    const stateHash = state ? sha256Hex(state) : undefined;
    const found =
      (flowCookie ? await findFlow(trx, { id: flowCookie }) : null) ??
      (stateHash ? await findFlow(trx, { stateHash }) : null);
    if (!found) return null;
    const { flow, owner } = found;
    const stateMatches =
      stateHash !== undefined && timingSafeEqual(Buffer.from(flow.state_hash), Buffer.from(stateHash));
    let problem: string | null = null;
    if (flow.used_at || !stateMatches) problem = 'invalid_state';
    else if (flow.expires_at.getTime() <= now) problem = 'expired';
    if (!flow.used_at) await markFlowUsed(trx, owner, flow.id);
    return { flow, owner, problem };
  });
}

/** The token endpoint's answer to our code: the ID token, and the access token for userinfo. */
async function exchangeCode(
  ctx: OidcContext,
  provider: OidcProviderRow,
  metadata: IssuerMetadata,
  code: string,
  codeVerifier: string,
): Promise<{ idToken: string; accessToken?: string }> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: ctx.callbackUrl,
    code_verifier: codeVerifier,
    client_id: provider.client_id,
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (provider.client_secret_sealed) {
    const secret = ctx.secrets.decrypt(provider.client_secret_sealed);
    const methods = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    if (methods.includes('client_secret_basic')) {
      // RFC 6749 2.3.1: both parts form-encoded before the Basic encoding.
      const pair = `${encodeURIComponent(provider.client_id)}:${encodeURIComponent(secret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      form.set('client_secret', secret);
    }
  }
  const { status, body } = await callIssuer(
    metadata.token_endpoint,
    { method: 'POST', headers, body: form.toString() },
    ctx.issuers.limits,
  );
  const answer = body as { id_token?: unknown; access_token?: unknown } | null;
  if (status !== 200 || typeof answer?.id_token !== 'string') throw new OidcRedirectError('exchange_failed');
  return {
    idToken: answer.id_token,
    ...(typeof answer.access_token === 'string' ? { accessToken: answer.access_token } : {}),
  };
}

/** The e-mail the ID token leaves out, from userinfo, which must speak of the same subject. */
async function withUserinfo(
  ctx: OidcContext,
  metadata: IssuerMetadata,
  claims: ProviderClaims,
  accessToken: string | undefined,
): Promise<ProviderClaims> {
  if (claims.email || !accessToken || !metadata.userinfo_endpoint) return claims;
  const { status, body } = await callIssuer(
    metadata.userinfo_endpoint,
    { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } },
    ctx.issuers.limits,
  );
  const info = body as Record<string, unknown> | null;
  if (status !== 200 || !info || info.sub !== claims.subject) return claims;
  return claimsOf(info, claims.subject);
}

/**
 * The provider sent the browser back. The flow is found by the browser's flow cookie (or the
 * state), used up, and checked; the code is exchanged, the ID token verified, the account
 * resolved, and the browser sent to the app's redirect URL with a one-time `code` (never a
 * token) or an `error`. Without a flow to name the app's URL, the answer is a 400.
 */
export async function handleCallback(
  ctx: OidcContext,
  flowCookie: string | undefined,
  query: CallbackQuery,
  client: ClientInfo,
): Promise<string> {
  const state = typeof query.state === 'string' ? query.state : undefined;
  const claimed = await claimFlow(ctx.db, flowCookie, state, ctx.issuer.clock.now());
  if (!claimed) throw errors.validation('This sign-in was not started here or has already ended');
  const { flow, owner } = claimed;
  try {
    if (claimed.problem) throw new OidcRedirectError(claimed.problem);
    if (query.error !== undefined) throw new OidcRedirectError(providerErrorCode(query.error));
    if (typeof query.code !== 'string' || !query.code) throw new OidcRedirectError('invalid_request');
    const provider = await findProviderById(ctx.db, owner, flow.provider_id);
    if (!provider) throw new OidcRedirectError('provider_not_found');
    const code = query.code;
    const claims = await withSlot(ctx, owner, async () => {
      const metadata = await ctx.issuers.discover(provider.issuer);
      // RFC 9207: an issuer that names itself in the callback must name the one we asked.
      if (query.iss !== undefined && query.iss !== metadata.issuer) throw new OidcRedirectError('invalid_request');
      const tokens = await exchangeCode(ctx, provider, metadata, code, flow.code_verifier);
      const payload = await verifyIdToken(ctx.issuers, metadata, tokens.idToken, {
        clientId: provider.client_id,
        nonce: flow.nonce,
        now: ctx.issuer.clock.now(),
      }).catch((error: unknown) => {
        if (error instanceof IdTokenRejected) throw new OidcRedirectError('invalid_id_token');
        throw error;
      });
      return withUserinfo(ctx, metadata, claimsOf(payload, String(payload.sub)), tokens.accessToken);
    });
    const account = await resolveAccount(ctx.db, owner, provider, claims, flow.link_user_id, client);
    const appCode = randomToken('', 32);
    await insertAuthorizationCode(ctx.db, owner, {
      code_hash: sha256Hex(appCode),
      code_challenge: flow.app_code_challenge,
      user_id: account.user.id,
      provider: provider.name,
      flow: account.outcome,
      expires_at: new Date(ctx.issuer.clock.now() + APP_CODE_TTL_MS),
    });
    return appRedirect(flow.redirect_to, { code: appCode });
  } catch (error) {
    if (!(error instanceof OidcRedirectError)) throw error;
    await recordEvents(ctx.db, owner, {
      type: 'sign_in_failed',
      userId: flow.link_user_id,
      client,
      data: { method: 'oidc', reason: error.code },
    });
    return appRedirect(flow.redirect_to, { error: error.code });
  }
}

const invalidGrant = () =>
  new AppError('INVALID_CREDENTIALS', 'The code is invalid, used, expired or not for this verifier');

type Redemption =
  | { kind: 'redeemed'; code: AuthorizationCodeRow }
  | { kind: 'invalid' }
  | { kind: 'replayed'; userId: string };

/**
 * Uses the code up. A code that comes back a second time may have been stolen (OAuth 2.0
 * Security BCP): the session its first exchange started ends, and a first exchange still
 * starting its session issues nothing.
 */
async function redeemCode(
  ctx: OidcContext,
  tenant: TenantContext,
  input: { code: string; codeVerifier: string },
  client: ClientInfo,
): Promise<Redemption> {
  const now = ctx.issuer.clock.now();
  return ctx.db.transaction(async (trx): Promise<Redemption> => {
    const row = await findAuthorizationCode(trx, tenant, sha256Hex(input.code));
    if (!row) return { kind: 'invalid' };
    if (row.used_at) {
      await markCodeReplayed(trx, tenant, row.id);
      if (row.session_id) {
        await endSessions(trx, tenant, { userId: row.user_id, only: row.session_id }, 'reuse_detected', { client });
      }
      return { kind: 'replayed', userId: row.user_id };
    }
    await markCodeUsed(trx, tenant, row.id);
    if (row.expires_at.getTime() <= now) return { kind: 'invalid' };
    const expected = Buffer.from(row.code_challenge);
    const given = Buffer.from(s256(input.codeVerifier));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { kind: 'invalid' };
    return { kind: 'redeemed', code: row };
  });
}

/**
 * The app exchanges the one-time code of the redirect, with the PKCE verifier of its side, for
 * our tokens: single use (a wrong verifier uses it up too), 5 minutes, in the project that
 * started the flow; then the sign-in ends as every other one does.
 */
export async function exchangeAppCode(
  ctx: OidcContext,
  tenant: TenantContext,
  input: { code: string; codeVerifier: string },
  client: ClientInfo,
) {
  const redemption = await redeemCode(ctx, tenant, input, client);
  if (redemption.kind !== 'redeemed') {
    await recordEvents(ctx.db, tenant, {
      type: 'sign_in_failed',
      userId: redemption.kind === 'replayed' ? redemption.userId : null,
      client,
      data: { method: 'oidc', reason: redemption.kind === 'replayed' ? 'code_reused' : 'invalid_grant' },
    });
    throw invalidGrant();
  }
  const redeemed = redemption.code;
  const user = await findUserById(ctx.db, tenant, redeemed.user_id);
  if (!user) throw invalidGrant();
  return finishPasswordlessSignIn(ctx.db, ctx.issuer, tenant, user, {
    method: 'oidc',
    detail: { provider: redeemed.provider },
    client,
    created: redeemed.flow === 'sign_up',
    onSession: async (trx, sessionId) => {
      if (!(await recordCodeSession(trx, tenant, redeemed.id, sessionId))) throw invalidGrant();
    },
  });
}
