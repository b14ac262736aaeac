import { randomBytes } from 'node:crypto';
import type { ServiceName } from './platform';

export interface RequestRecord {
  op: string;
  service: ServiceName;
  start: number;
  end: number;
  /** 0 when no answer came (the client timeout or a broken connection). */
  status: number;
  retryAfter: string | null;
  /** The balancer answered itself (no ready replica, a replica lost mid-request). */
  byBalancer: boolean;
  error?: string;
}

export interface Load {
  records: RequestRecord[];
  /** Addresses whose registration was acknowledged (201). */
  users: string[];
  /** Ids of notifications whose creation was acknowledged (201). */
  notifications: string[];
  /** Ids of content items whose creation was acknowledged (201). */
  content: string[];
  stop(): Promise<void>;
}

export interface LoadTarget {
  urls: Record<ServiceName, string>;
  headers: Record<string, string>;
}

export interface LoadOptions {
  /** Journeys started per second. */
  rate: number;
  clientTimeoutMs: number;
}

export const LOAD_PASSWORD = 'correct horse battery';

/**
 * The journeys at a steady rate: sign-ups, logins, notification writes and reads, content
 * writes and reads, completions, mail logs, billing config reads. Every request is recorded;
 * acknowledged writes are remembered so a scenario can check they survived.
 */
export function startLoad(target: LoadTarget, options: LoadOptions): Load {
  const records: RequestRecord[] = [];
  const users: string[] = [];
  const notifications: string[] = [];
  const content: string[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let step = 0;

  const send = async (
    service: ServiceName,
    op: string,
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: unknown }> => {
    const start = Date.now();
    let status = 0;
    let retryAfter: string | null = null;
    let body: unknown;
    let error: string | undefined;
    try {
      const res = await fetch(`${target.urls[service]}${path}`, {
        method: init.method ?? 'GET',
        headers: target.headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(options.clientTimeoutMs),
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } catch (e) {
      error = (e as Error).name === 'TimeoutError' ? 'client timeout' : String((e as Error).cause ?? e);
    }
    const byBalancer = (body as { error?: { code?: string } })?.error?.code === 'BALANCER';
    records.push({ op, service, start, end: Date.now(), status, retryAfter, byBalancer, error });
    return { status, body };
  };

  const journeys: (() => Promise<unknown>)[] = [
    async () => {
      const email = `load-${randomBytes(6).toString('hex')}@example.com`;
      const res = await send('auth', 'register', '/register', {
        method: 'POST',
        body: { email, password: LOAD_PASSWORD },
      });
      if (res.status === 201) users.push(email);
    },
    async () => {
      const email = users[Math.floor(Math.random() * users.length)];
      if (email) await send('auth', 'login', '/login', { method: 'POST', body: { email, password: LOAD_PASSWORD } });
    },
    async () => {
      const res = await send('notifications', 'notify', '/notifications', {
        method: 'POST',
        body: { userId: 'load-user', title: 'Load', message: `step ${step}`, type: 'info' },
      });
      if (res.status === 201) notifications.push((res.body as { id: string }).id);
    },
    () => send('notifications', 'inbox', '/notifications?userId=load-user&limit=20'),
    async () => {
      const res = await send('cms', 'publish', '/content', {
        method: 'POST',
        body: { type: 'blog', title: `Load ${randomBytes(4).toString('hex')}`, content: 'body', status: 'published' },
      });
      if (res.status === 201) content.push((res.body as { id: string }).id);
    },
    () => send('cms', 'read', '/content?limit=10'),
    () =>
      send('llm', 'complete', '/completions', {
        method: 'POST',
        body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hello ${step}` }] },
      }),
    () => send('mailer', 'mail-logs', '/logs?limit=10'),
    () => send('billing', 'pay-config', '/pay/config'),
  ];

  const timer = setInterval(() => {
    const journey = journeys[step++ % journeys.length];
    const running = journey().catch(() => undefined);
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
  }, 1000 / options.rate);

  return {
    records,
    users,
    notifications,
    content,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}
