/**
 * @platform/client: one typed client for the six services and the console (their control plane). Browser-safe: imports nothing from
 * Node, only `fetch`.
 */
import * as auth from './generated/auth';
import * as billing from './generated/billing';
import * as cms from './generated/cms';
import * as llm from './generated/llm';
import * as mailer from './generated/mailer';
import * as notifications from './generated/notifications';
import * as consoleApi from './generated/console';
import { createServiceClient, type ProjectKeys } from './service-client';
import { memorySessionStore, SessionManager, type Session, type SessionStore } from './session';
import type { RetryOptions, ServiceClient } from './types';

export const SERVICES = ['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications', 'console'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The `pnpm start` addresses. */
export const DEFAULT_URLS: Record<ServiceName, string> = {
  auth: 'http://localhost:4001/v1',
  billing: 'http://localhost:4002/v1',
  cms: 'http://localhost:4003/v1',
  llm: 'http://localhost:4004/v1',
  mailer: 'http://localhost:4005/v1',
  notifications: 'http://localhost:4006/v1',
  console: 'http://localhost:4000/v1',
};

export interface ClientOptions {
  /** Base URL of each service, `/v1` included; the `pnpm start` ports by default. */
  urls?: Partial<Record<ServiceName, string>>;
  /** The project's four keys (server side). */
  keys?: ProjectKeys;
  /** End-user mode: the signed-in user's tokens, sent as the bearer where an operation takes one. */
  session?: Session;
  /** Where the session is kept (it is rotated on refresh); memory by default. */
  sessionStore?: SessionStore;
  /** Told of each new session (after login or a refresh) and of its end (null). */
  onSessionChange?: (session: Session | null) => void;
  /** Retries of idempotent calls (GET, PUT, DELETE, or a call with an Idempotency-Key) on 429/502/503/504 and network errors. */
  retry?: RetryOptions;
  fetch?: typeof globalThis.fetch;
  /** Headers sent on every call. */
  headers?: Record<string, string>;
}

export interface PlatformClient {
  auth: ServiceClient<auth.paths, typeof auth.operations>;
  billing: ServiceClient<billing.paths, typeof billing.operations>;
  cms: ServiceClient<cms.paths, typeof cms.operations>;
  llm: ServiceClient<llm.paths, typeof llm.operations>;
  mailer: ServiceClient<mailer.paths, typeof mailer.operations>;
  notifications: ServiceClient<notifications.paths, typeof notifications.operations>;
  /** The control plane; its bearer is a console member's access token (its session comes from `console.signIn`). */
  console: ServiceClient<consoleApi.paths, typeof consoleApi.operations>;
  /** End-user mode: the session calls use now. */
  getSession(): Promise<Session | null>;
  /** End-user mode: start (after login) or end (null) the session. */
  setSession(session: Session | null): Promise<void>;
}

export function createClient(options: ClientOptions = {}): PlatformClient {
  const urls = { ...DEFAULT_URLS, ...options.urls };
  const store = options.sessionStore ?? memorySessionStore(options.session ?? null);
  const common = { keys: options.keys, retry: options.retry, fetch: options.fetch, headers: options.headers };
  const authClient = createServiceClient(
    { ...common, service: 'auth', baseUrl: urls.auth },
    auth.operations,
  ) as unknown as PlatformClient['auth'];
  const sessions = new SessionManager(
    store,
    async (refreshToken) => {
      const { data, response } = await authClient.postRefreshToken({ body: { refreshToken }, retry: false });
      if (data) return { accessToken: data.accessToken, refreshToken: data.refreshToken };
      // Refused (401, 410): the session is over. Anything else may pass: keep the old one.
      if (response.status === 401 || response.status === 410) return null;
      throw new Error(`session refresh failed with status ${response.status}`);
    },
    options.onSessionChange,
  );
  const make = <T>(service: ServiceName, operations: object): T =>
    createServiceClient(
      { ...common, service, baseUrl: urls[service], sessions },
      operations as Parameters<typeof createServiceClient>[1],
    ) as T;
  return {
    auth: make('auth', auth.operations),
    billing: make('billing', billing.operations),
    cms: make('cms', cms.operations),
    llm: make('llm', llm.operations),
    mailer: make('mailer', mailer.operations),
    notifications: make('notifications', notifications.operations),
    console: make('console', consoleApi.operations),
    getSession: async () => (await store.get()) ?? null,
    setSession: (session) => sessions.set(session),
  };
}

export type { ProjectKeys } from './service-client';
export { keyHeaders } from './service-client';
export { NetworkError } from './errors';
export { memorySessionStore, type Session, type SessionStore } from './session';
export type { RateLimitInfo } from './rate-limit';
export type { CallMeta, CallOptions, CallResult, RetryOptions, ServiceClient } from './types';
export type { auth, billing, cms, llm, mailer, notifications, consoleApi };
/** The error envelope every service answers with, and its closed list of codes. */
export type ApiError = auth.components['schemas']['Error'];
export type ErrorCode = ApiError['error']['code'];
