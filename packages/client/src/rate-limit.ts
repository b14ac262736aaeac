/** What a response says about the caller's rate limit (IETF draft RateLimit headers and Retry-After). */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Seconds until the window resets. */
  resetSeconds?: number;
  /** Seconds to wait before trying again (429, 503), from Retry-After. */
  retryAfterSeconds?: number;
}

const number = (value: string | undefined | null): number | undefined => {
  if (value === undefined || value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** Retry-After as seconds: either a number of seconds or an HTTP date. */
function retryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const seconds = number(value);
  if (seconds !== undefined) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Reads `RateLimit: limit=.., remaining=.., reset=..` (draft 7) or the `RateLimit-*` trio (draft 6). */
export function readRateLimit(headers: Headers, now = Date.now()): RateLimitInfo {
  const info: RateLimitInfo = {};
  const combined = headers.get('ratelimit');
  if (combined) {
    for (const part of combined.split(/[,;]/)) {
      const [key, value] = part.split('=').map((s) => s.trim().toLowerCase());
      if (key === 'limit') info.limit = number(value);
      else if (key === 'remaining') info.remaining = number(value);
      else if (key === 'reset') info.resetSeconds = number(value);
    }
  }
  info.limit ??= number(headers.get('ratelimit-limit'));
  info.remaining ??= number(headers.get('ratelimit-remaining'));
  info.resetSeconds ??= number(headers.get('ratelimit-reset'));
  info.retryAfterSeconds = retryAfter(headers.get('retry-after'), now);
  for (const key of Object.keys(info) as (keyof RateLimitInfo)[]) if (info[key] === undefined) delete info[key];
  return info;
}
