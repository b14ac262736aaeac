import type { Request, RequestHandler } from 'express';
import { errors, LOOKUPS_BUSY, parse, tenantOf, type KeyDirectory, type TenantContext } from '@platform/tenancy';
import { clientOf } from '../shared/client';
import { listMyIdentities, startLinking, unlinkIdentity } from './identities.service';
import type { OidcContext } from './oidc-context';
import { appRedirect, OidcRedirectError } from './oidc.errors';
import { authorizeQuery, callbackQuery, identityIdParams, linkSchema, tokenSchema } from './oidc.schemas';
import {
  checkRedirectTo,
  exchangeAppCode,
  FLOW_TTL_MS,
  handleCallback,
  startAuthorization,
} from './oidc-sign-in.service';

/** Binds a flow to the browser that started it: the callback must come back with it. */
const FLOW_COOKIE = 'platform_oidc_flow';

function flowCookieOf(req: Request): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** The project of a browser navigation, by the public key in its query. */
async function projectOfKey(directory: KeyDirectory, apiKey: string): Promise<TenantContext> {
  const record = await directory.findKey(apiKey);
  if (record === LOOKUPS_BUSY) throw errors.unavailable();
  if (!record) throw errors.unauthorized('Unknown api_key');
  if (record.suspended) throw errors.forbidden('This tenant is suspended');
  return { tenantId: record.tenantId, projectId: record.projectId, settings: record.settings };
}

export function oidcHandlers(
  ctx: OidcContext,
  directory: KeyDirectory,
): Record<'authorize' | 'callback' | 'token' | 'identities' | 'link' | 'unlink', RequestHandler> {
  const cookiePath = new URL(ctx.callbackUrl).pathname;
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure: ctx.secureCookie, path: cookiePath };
  return {
    authorize: async (req, res) => {
      const query = parse(authorizeQuery, req.query);
      const tenant = await projectOfKey(directory, query.api_key);
      checkRedirectTo(tenant, query.redirect_to);
      try {
        const { url, flowId } = await startAuthorization(ctx, tenant, {
          provider: query.provider,
          redirectTo: query.redirect_to,
          codeChallenge: query.code_challenge,
        });
        res.cookie(FLOW_COOKIE, flowId, { ...cookieOptions, maxAge: FLOW_TTL_MS });
        res.redirect(302, url);
      } catch (error) {
        if (!(error instanceof OidcRedirectError)) throw error;
        res.redirect(302, appRedirect(query.redirect_to, { error: error.code }));
      }
    },
    callback: async (req, res) => {
      const query = parse(callbackQuery, req.query);
      const target = await handleCallback(ctx, flowCookieOf(req), query, clientOf(req));
      res.clearCookie(FLOW_COOKIE, cookieOptions);
      res.redirect(302, target);
    },
    token: async (req, res) => {
      const input = parse(tokenSchema, req.body);
      res.json(await exchangeAppCode(ctx, tenantOf(req), input, clientOf(req)));
    },
    identities: async (req, res) => {
      if (!req.auth) throw errors.invalidSession();
      res.json(await listMyIdentities(ctx, req.auth));
    },
    link: async (req, res) => {
      if (!req.auth) throw errors.invalidSession();
      res.json(await startLinking(ctx, tenantOf(req), req.auth, parse(linkSchema, req.body)));
    },
    unlink: async (req, res) => {
      if (!req.auth) throw errors.invalidSession();
      const { id } = parse(identityIdParams, req.params);
      await unlinkIdentity(ctx, req.auth, id, { client: clientOf(req), sessionId: req.auth.sessionId });
      res.status(204).end();
    },
  };
}
