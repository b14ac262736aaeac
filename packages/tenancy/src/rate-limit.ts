import type { Request, RequestHandler } from 'express';
import { MemoryStore, type Options, type Store } from 'express-rate-limit';
import type Redis from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { clientAddressKey } from './client-address';
import { errors } from './errors';
import type { Logger } from 'winston';

export interface RateLimitOptions {
  /** Distinguishes this limiter's counters from every other's (in Redis). */
  name: string;
  windowMs: number;
  limit: number;
  /** What is counted; requests for which it returns undefined are not limited. */
  key: (req: Request) => string | undefined;
  /** Shared counters across replicas; in-memory when absent. */
  redis?: Redis;
  /** Where a failing counter store is reported (the request then goes through uncounted). */
  logger?: Logger;
}

export const byProject = (req: Request): string | undefined =>
  req.tenant ? `${req.tenant.tenantId}:${req.tenant.projectId}` : undefined;

// The key of an address costs a parse of it; the key checks ask it for every failed request of a flood.
const ipKeys = new Map<string, string>();

/** The client's address key (`clientAddressKey`) of the address the trusted proxies vouch for (`req.ip`). */
export const byIp = (req: Request): string => {
  const ip = req.ip ?? 'unknown';
  let key = ipKeys.get(ip);
  if (key === undefined) {
    if (ipKeys.size >= 10_000) ipKeys.clear();
    key = clientAddressKey(ip);
    ipKeys.set(ip, key);
  }
  return key;
};

export const byBodyEmail = (req: Request): string | undefined => {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `${req.tenant?.projectId ?? ''}:${email.trim().toLowerCase()}` : undefined;
};

function redisStore(name: string, redis: Redis): RedisStore {
  const store = new RedisStore({
    prefix: `rl:${name}:`,
    sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
  });
  // The store loads its scripts when created. With Redis down those loads fail, and nothing
  // awaits the read script's (this limiter never reads): unhandled, that rejection would end
  // the process. The increment script's failure surfaces, and is retried, on the next request.
  store.incrementScriptSha.catch(() => undefined);
  store.getScriptSha.catch(() => undefined);
  return store;
}

function storeFor(options: RateLimitOptions): Store {
  const store: Store = options.redis ? redisStore(options.name, options.redis) : new MemoryStore();
  // Both stores read only the window from the limiter options.
  store.init?.({ windowMs: options.windowMs } as Options);
  return store;
}

/**
 * A limiter answering 429 RATE_LIMITED with Retry-After and the standard (draft-7) RateLimit
 * headers, counting in express-rate-limit's stores (memory, or Redis shared by replicas).
 * The middleware is our own: one store call per request, where express-rate-limit's own
 * middleware awaits five times on every request (docs/performance.md).
 */
export function createRateLimit(options: RateLimitOptions): RequestHandler {
  const store = storeFor(options);
  const windowSeconds = Math.ceil(options.windowMs / 1000);
  const policy = `${options.limit};w=${windowSeconds}`;
  return (req, res, next) => {
    const key = options.key(req);
    if (key === undefined) return next();
    return Promise.resolve(store.increment(key)).then(
      ({ totalHits, resetTime }) => {
        const resetSeconds = resetTime
          ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
          : windowSeconds;
        const remaining = Math.max(options.limit - totalHits, 0);
        res.setHeader('RateLimit-Policy', policy);
        res.setHeader('RateLimit', `limit=${options.limit}, remaining=${remaining}, reset=${resetSeconds}`);
        if (totalHits <= options.limit) return next();
        next(errors.rateLimited('Too many requests, slow down', Math.max(1, resetSeconds)));
      },
      // A Redis outage must not take the API down with it: count nothing rather than refuse.
      (error: unknown) => {
        options.logger?.warn('rate limit store failed; request not counted', {
          limiter: options.name,
          error: String(error),
        });
        next();
      },
    );
  };
}
