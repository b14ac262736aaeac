import { createTestService, describeMemberTokens } from '@platform/testkit';
import { llmService } from '../src';

/** A requests-per-minute limit of its own for each marker, within what the limit accepts. */
const limitOf = (marker: string) => String(1_000_000 + parseInt(marker.slice(1, 6), 16));

describeMemberTokens({
  service: 'llm',
  start: () => createTestService(llmService, { env: { LLM_ROLE: 'api' } }),
  write: (marker) => ({ method: 'put', path: '/v1/limits', body: { requestsPerMinute: Number(limitOf(marker)) } }),
  writeStatus: 200,
  writeRoute: '/v1/limits',
  read: () => '/v1/limits',
  visible: limitOf,
});
