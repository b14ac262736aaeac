import type { RequestHandler } from 'express';
import * as accounts from '../accounts/accounts.service';
import { clearSession, readSession, secondsLeft, writeSession, type SessionTokens } from './session-cookie';

const REFRESH_WHEN_LEFT_SECONDS = 30;

const isTokens = (body: unknown): body is SessionTokens =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as SessionTokens).accessToken === 'string' &&
  typeof (body as SessionTokens).refreshToken === 'string';

/**
 * Puts the cookie's access token on the request as the bearer (refreshed first when it is about
 * to expire), so the control plane's own routes and checks decide as for any other caller.
 */
export function bearerFromCookie(deps: accounts.AccountDeps, secure: boolean): RequestHandler {
  return async (req, res, next) => {
    let session = readSession(req);
    if (session && secondsLeft(session.accessToken) < REFRESH_WHEN_LEFT_SECONDS) {
      const answer = await accounts.forward(
        deps,
        'refresh',
        { refreshToken: session.refreshToken },
        {
          clientAddress: req.ip,
          userAgent: req.get('user-agent'),
        },
      );
      session = isTokens(answer.body)
        ? { accessToken: answer.body.accessToken, refreshToken: answer.body.refreshToken }
        : null;
      if (session) writeSession(res, session, secure);
      else if (answer.status === 401 || answer.status === 410) clearSession(res, secure);
    }
    if (session) req.headers.authorization = `Bearer ${session.accessToken}`;
    else delete req.headers.authorization;
    next();
  };
}

/**
 * On sign-in and sign-up the tokens of the answer go into the cookie and are taken out of the
 * body: the page learns that it is signed in, never the tokens.
 */
export const keepTokensInCookie =
  (secure: boolean): RequestHandler =>
  (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode < 300 && isTokens(body)) {
        writeSession(res, { accessToken: body.accessToken, refreshToken: body.refreshToken }, secure);
        const {
          accessToken: _access,
          refreshToken: _refresh,
          ...rest
        } = body as SessionTokens & Record<string, unknown>;
        return json({ ...rest, signedIn: true });
      }
      return json(body);
    };
    next();
  };

/** Ends the session at Authentication (the refresh token is revoked) and drops the cookie. */
export function signOut(deps: accounts.AccountDeps, secure: boolean): RequestHandler {
  return async (req, res) => {
    const session = readSession(req);
    if (session)
      await accounts.forward(
        deps,
        'sign-out',
        { refreshToken: session.refreshToken },
        {
          clientAddress: req.ip,
          userAgent: req.get('user-agent'),
        },
      );
    clearSession(res, secure);
    res.status(204).end();
  };
}
