import type { Request, Response } from 'express';

/** The member's tokens, kept in an httpOnly cookie: no script of the page can read them. */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

const COOKIE = 'console_session';
const MAX_AGE_SECONDS = 30 * 24 * 3600;

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export function readSession(req: Request): SessionTokens | null {
  const raw = cookieValue(req, COOKIE);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<SessionTokens>;
    if (typeof parsed.accessToken !== 'string' || typeof parsed.refreshToken !== 'string') return null;
    return { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken };
  } catch {
    return null;
  }
}

const attributes = (secure: boolean, maxAge: number) =>
  `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;

export function writeSession(res: Response, tokens: SessionTokens, secure: boolean): void {
  const value = Buffer.from(JSON.stringify(tokens)).toString('base64url');
  res.append('set-cookie', `${COOKIE}=${value}; ${attributes(secure, MAX_AGE_SECONDS)}`);
}

export function clearSession(res: Response, secure: boolean): void {
  res.append('set-cookie', `${COOKIE}=; ${attributes(secure, 0)}`);
}

/** Seconds until a JWT expires (0 when unreadable); the signature is checked by whoever receives it. */
export function secondsLeft(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: number;
    };
    return typeof payload.exp === 'number' ? payload.exp - Math.floor(Date.now() / 1000) : 0;
  } catch {
    return 0;
  }
}
