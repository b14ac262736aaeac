/** End-user mode: an auth session held in a store, refreshed once however many calls find it stale. */
export interface Session {
  accessToken: string;
  refreshToken?: string;
}

/** Where the session lives (memory by default; localStorage, a cookie jar or a database in apps). */
export interface SessionStore {
  get(): Session | null | Promise<Session | null>;
  set(session: Session | null): void | Promise<void>;
}

export function memorySessionStore(initial: Session | null = null): SessionStore {
  let session = initial;
  return {
    get: () => session,
    set: (next) => {
      session = next;
    },
  };
}

/** A refresh attempt's outcome: a new session, or null when the auth service refused the refresh token. */
export type RefreshSession = (refreshToken: string) => Promise<Session | null>;

/** Seconds left on a JWT (undefined when it cannot be read); works in browsers and Node alike. */
export function secondsLeft(accessToken: string, now = Date.now()): number | undefined {
  const payload = accessToken.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp - now / 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class SessionManager {
  private inflight: Promise<Session | null> | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly refresh: RefreshSession,
    private readonly onChange?: (session: Session | null) => void,
  ) {}

  /** The session to call with; refreshed first when its access token is about to expire. */
  async current(): Promise<Session | null> {
    const session = await this.store.get();
    if (!session) return null;
    const left = secondsLeft(session.accessToken);
    if (left !== undefined && left < 10 && session.refreshToken) return this.renew(session.accessToken);
    return session;
  }

  /**
   * A fresh session after `staleAccessToken` was refused. When another call has already
   * rotated the refresh token, its result is used: presenting the old refresh token again would
   * look like theft to the auth service and revoke the whole session.
   */
  async renew(staleAccessToken: string): Promise<Session | null> {
    if (this.inflight) return this.inflight;
    const session = await this.store.get();
    if (!session) return null;
    if (session.accessToken !== staleAccessToken) return session;
    if (!session.refreshToken) return null;
    if (this.inflight) return this.inflight;
    const refreshToken = session.refreshToken;
    this.inflight = (async () => {
      try {
        const next = await this.refresh(refreshToken);
        await this.store.set(next);
        this.onChange?.(next);
        return next;
      } finally {
        this.inflight = undefined;
      }
    })();
    return this.inflight;
  }

  async set(session: Session | null): Promise<void> {
    await this.store.set(session);
    this.onChange?.(session);
  }
}
