import express, { Router, type RequestHandler } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@platform/http';
import type { Permission } from '../access/roles';
import type { AccountDeps } from '../accounts/accounts.service';
import type { ConsoleConfig } from '../config';
import type { MemberTokenDeps } from '../member-tokens/member-tokens.service';
import { requireSameOrigin } from './csrf';
import { devInbox } from './dev-inbox';
import { servicePassThrough } from './service-pass-through';
import { bearerFromCookie, keepTokensInCookie, signOut } from './session.middleware';
import { buildWeb, WEB_BUILT, webBuildIsStale } from './web-build';

/** No inline script or style, nothing from elsewhere: the pages load only their own files. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  // Rendered e-mails and template previews are shown in sandboxed frames of srcdoc.
  "frame-src 'self'",
].join('; ');

const pageHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
  next();
};

export interface SiteDeps {
  config: ConsoleConfig;
  logger: Logger;
  accounts: AccountDeps;
  memberTokens: MemberTokenDeps;
  /** The control plane's /v1 routes, reached from the page through the cookie. */
  api: Router;
  member: RequestHandler;
  org: (permission: Permission) => RequestHandler;
}

/** Where the built pages are: the image's dist/web, CONSOLE_WEB_DIR, or a build from source made now. */
function builtPages(config: ConsoleConfig, logger: Logger): () => Promise<string> {
  const shipped = config.webDir ?? path.join(__dirname, 'web');
  if (existsSync(path.join(shipped, 'index.html'))) return () => Promise.resolve(shipped);
  let pending: Promise<string> | undefined;
  return () => {
    pending ??= (async () => {
      if (webBuildIsStale()) {
        const started = Date.now();
        await buildWeb();
        logger.info('web console built', { ms: Date.now() - started });
      }
      return WEB_BUILT;
    })().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/**
 * The web console: its pages, and the same-origin API they call. `/api/console/v1/...` is the
 * control plane with the cookie's token as the bearer; `/api/projects/:org/:project/:service/v1/...`
 * is one of the six services with a member token; every write needs the CSRF header.
 */
export function createSite(deps: SiteDeps): { router: Router; warm(): Promise<unknown> } {
  const secure = deps.config.consoleUrl.startsWith('https:');
  const pages = builtPages(deps.config, deps.logger);
  const router = Router();
  const sameOrigin = requireSameOrigin(deps.config.consoleUrl);
  const bearer = bearerFromCookie(deps.accounts, secure);
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  };

  router.use('/api', noStore, sameOrigin);
  router.post('/api/session/sign-out', signOut(deps.accounts, secure));
  router.get('/api/site', (req, res) => {
    // The services' addresses as a builder on this machine reaches them (the host the page was loaded from).
    const host = req.hostname;
    res.json({
      devInbox: deps.config.devInbox,
      serviceUrls: Object.fromEntries(
        Object.entries(deps.config.serviceUrls).map(([name, url]) => [
          name,
          url.replace(/\/\/(127\.0\.0\.1|localhost)(?=[:/])/, `//${host}`),
        ]),
      ),
    });
  });
  if (deps.config.devInbox)
    router.get('/api/dev-inbox', devInbox(deps.accounts.reserved, deps.config.serviceUrls.mailer));
  router.use('/api/console/v1/account', keepTokensInCookie(secure));
  router.use('/api/console/v1', bearer, deps.api);
  router.all(
    '/api/projects/:orgId/:projectId/:service/v1/*rest',
    bearer,
    deps.member,
    deps.org('member-token.issue'),
    servicePassThrough(deps.memberTokens, deps.config.serviceUrls) as unknown as RequestHandler,
  );

  const assets: RequestHandler = async (req, res, next) => {
    const dir = await pages();
    express.static(dir, { index: false, immutable: true, maxAge: '365d', fallthrough: true })(req, res, next);
  };
  router.use('/assets', pageHeaders, (req, res, next) => {
    req.url = `/assets${req.url}`;
    return assets(req, res, next);
  });
  // Every other page address is the one-page app: it routes in the browser.
  router.get(/^\/(?!api\/|v1\/|assets\/).*/, pageHeaders, async (req, res, next) => {
    if (!req.accepts('html')) return next();
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(path.join(await pages(), 'index.html'));
  });
  return { router, warm: () => pages() };
}
