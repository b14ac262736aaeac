import path from 'node:path';
import type { Server } from 'node:http';
import type { Express } from 'express';
import { apiClient, type ApiClient, type CoverageOptions } from '@platform/testkit';
import { openapi } from '../../src/openapi';

/** Notifications takes part in the run-wide check that every documented operation and status is exercised. */
export const coverage: CoverageOptions = {
  service: 'notifications',
  testDir: path.join(__dirname, '..'),
  exempt: [
    {
      pattern: '^GET /(me/)?notifications/stream 200$',
      reason: 'an event stream stays open: live.stream.test.ts and inbox.api.test.ts open it with sse-client.ts',
    },
    {
      pattern: '^(?!GET /(me/)?notifications/stream ).* 429$',
      reason:
        "the per-project limit every keyed and end-user route shares: project-rate-limit.api.test.ts (the streams' own limits are tested)",
    },
    { pattern: ' 503$', reason: 'an unreachable database, shared by every operation: database-outage.api.test.ts' },
  ],
};

/**
 * The shared test client: every response, and every request the service accepts, is checked
 * against the service's OpenAPI document, and what it exercised counts towards `coverage`.
 * `headers` go with every call (a project's keys, say).
 */
export function api(app: Express | Server, headers?: Record<string, string>): ApiClient {
  return apiClient(app, { openapi, coverage, headers });
}
