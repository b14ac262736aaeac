import path from 'node:path';
import type { Express } from 'express';
import type { Knex } from 'knex';
import type { EventBus, EventEnvelope } from '@platform/events';
import {
  apiClient,
  createTestService,
  type ApiCallOptions,
  type CoverageOptions,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { authService, type AuthShared } from '../../src/index';
import { openapi } from '../../src/openapi';

/**
 * The service around fresh databases, with bcrypt at its minimum cost (4), no forgot-password
 * floor, and rate limits out of the way unless a test sets them.
 */
export async function startAuth(
  env: Record<string, string> = {},
  options: { bus?: EventBus } = {},
): Promise<TestService<AuthShared>> {
  return createTestService(authService, {
    ...options,
    env: {
      BCRYPT_COST: '4',
      AUTH_FORGOT_PASSWORD_MIN_MS: '0',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
      ...env,
    },
  });
}

export type CallOptions = ApiCallOptions;

/** Auth takes part in the run-wide check that every documented operation and status is exercised. */
export const coverage: CoverageOptions = {
  service: 'auth',
  testDir: path.join(__dirname, '..'),
  exempt: [
    { pattern: ' 503$', reason: 'a database outage: packages/tenancy and the e2e robustness sweep' },
    {
      pattern: '^(?!GET /(me|sessions) )[A-Z]+ /(me|sessions|mfa|passkeys)[^ ]* 403$',
      reason:
        "an enrollment-only token is refused by tenancy's requireBearer for every route alike: test/mfa.api.test.ts exercises GET /me and GET /sessions",
    },
    {
      pattern:
        '^(POST /(refresh-token|logout|reset-password|verify-email)|[A-Z]+ /(me|sessions|mfa/(?!verify)|passkeys(?!/authentication)|events|users/)[^ ]*|GET /users/by-email) 429$',
      reason:
        "the shared per-project limit, not auth's own: packages/tenancy/test/project-in-flight.api.test.ts, e2e/robustness.test.ts",
    },
    {
      pattern:
        '^(POST /(mfa/verify|passkeys/authentication/(options|verify)|anonymous|otp/verify|token)|GET /authorize) 429$',
      reason: 'the same per-IP limit middleware as login: test/rate-limits.api.test.ts',
    },
  ],
};

/**
 * The shared test client: responses, and the requests the service accepts, checked against the
 * OpenAPI document; what it exercised counts towards `coverage`.
 */
export function apiOf(app: Express) {
  const { get, post, patch, delete: remove } = apiClient(app, { openapi, coverage });
  return { get, post, patch, delete: remove };
}

export type Api = ReturnType<typeof apiOf>;

let counter = 0;
/** A fresh email address for one test. */
export const uniqueEmail = (label = 'user') => `${label}.${Date.now().toString(36)}.${++counter}@example.com`;

export const PASSWORD = 'correct horse battery';

/** Registers a user and returns the 201 body. */
export async function registerUser(api: Api, project: TestProject, email = uniqueEmail(), password = PASSWORD) {
  const res = await api.post('/register', { headers: project.headers, body: { email, password } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { user: { id: string; email: string }; accessToken: string; refreshToken: string };
}

/** Outbox events of a project, oldest first. */
export async function outboxEvents<T = Record<string, unknown>>(
  db: Knex,
  project: TestProject,
  type?: string,
): Promise<EventEnvelope<T>[]> {
  const rows: { envelope: EventEnvelope<T> }[] = await db('outbox')
    .modify((q) => {
      if (type) q.where({ type });
    })
    .orderBy('created_at')
    .select('envelope');
  return rows.map((r) => r.envelope).filter((e) => e.projectId === project.projectId);
}

/** The token inside an email link. */
export const tokenOf = (link: string): string => new URL(link).searchParams.get('token') ?? '';
