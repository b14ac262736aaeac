import { assembleService, type AssembledService } from '@platform/runtime';
import { statementsDuring, waitFor, type ApiClient, type TestProject } from '@platform/testkit';
import { llmService, type LlmServiceShared } from '../src';
import { hello } from './support/gateway-client';
import { llmApi, startLlmTestService, type LlmTestService } from './support/llm-test-service';

// LLM_GATEWAY_LIMITS=false: no budgets or rate limits, but the project's default fallbacks still apply.
const LIMITS_OFF = { LLM_GATEWAY_LIMITS: 'false', LLM_GATEWAY_RETRIES: '0' };

let llm: LlmTestService;
const replicas: AssembledService<LlmServiceShared>[] = [];

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { ...LIMITS_OFF, LLM_GATEWAY_LEASE_TTL_MS: '60000' } });
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await llm.close();
});

beforeEach(() => {
  llm.openai.faults.length = 0;
});

/** Another replica on the same database with limits off and the given lease TTL. */
function replica(leaseTtlMs: number): ApiClient {
  const env = { ...llm.svc.deps.env, ...LIMITS_OFF, LLM_GATEWAY_LEASE_TTL_MS: String(leaseTtlMs) };
  const built = assembleService(llmService, { ...llm.svc.deps, env });
  replicas.push(built);
  return llmApi(built.app);
}

const setFallbacks = (api: ApiClient, project: TestProject, fallbacks: string[]) =>
  api.put('/v1/fallbacks', { headers: project.headers, body: { fallbacks } });

/** A request whose OpenAI model fails once: the model that answered it (a default fallback). */
async function answeredAfterFailure(api: ApiClient, project: TestProject): Promise<string> {
  llm.openai.faults.push({ status: 503 });
  const res = await api.post('/v1/chat/completions', {
    headers: project.headers,
    body: { model: 'gpt-4o-mini', messages: hello },
  });
  expect(res.status).toBe(200);
  return res.body.model as string;
}

describe('limits off', () => {
  it('when a project sets requestsPerMinute 1, then its requests are still answered', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: project.headers, body: { requestsPerMinute: 1 } });
    for (let i = 0; i < 3; i++) {
      const res = await llm.api.post('/v1/chat/completions', {
        headers: project.headers,
        body: { model: 'gpt-4o-mini', messages: hello },
      });
      expect(res.status).toBe(200);
    }
  });

  it('when requests follow each other, then the default fallbacks are read once, not once a request', async () => {
    const project = await llm.projectWithVendors();
    await setFallbacks(llm.api, project, ['claude-haiku-4-5']);
    const sent = await statementsDuring(llm.svc.deps.db, async () => {
      for (let i = 0; i < 5; i++) {
        await llm.api.post('/v1/chat/completions', {
          headers: project.headers,
          body: { model: 'gpt-4o-mini', messages: hello },
        });
      }
    });
    expect(sent.filter((sql) => /fallbacks/.test(sql) && /^select/i.test(sql))).toHaveLength(1);
  });

  it('when the default fallbacks change through this replica, then the next request falls back to the new ones', async () => {
    const project = await llm.projectWithVendors();
    await setFallbacks(llm.api, project, ['claude-haiku-4-5']);
    expect(await answeredAfterFailure(llm.api, project)).toBe('claude-haiku-4-5');
    await setFallbacks(llm.api, project, ['claude-sonnet-4-5']);
    expect(await answeredAfterFailure(llm.api, project)).toBe('claude-sonnet-4-5');
  });

  it('when another replica changes them, then this replica follows within its lease TTL', async () => {
    const project = await llm.projectWithVendors();
    const here = replica(200);
    await setFallbacks(llm.api, project, ['claude-haiku-4-5']);
    expect(await answeredAfterFailure(here, project)).toBe('claude-haiku-4-5');
    await setFallbacks(llm.api, project, ['claude-sonnet-4-5']);
    await waitFor(async () => (await answeredAfterFailure(here, project)) === 'claude-sonnet-4-5', {
      timeoutMs: 5_000,
      intervalMs: 50,
    });
  });

  it('when another project sets its fallbacks, then this project’s requests do not use them', async () => {
    const project = await llm.projectWithVendors();
    const other = await llm.projectWithVendors();
    await setFallbacks(llm.api, project, ['claude-haiku-4-5']);
    expect(await answeredAfterFailure(llm.api, project)).toBe('claude-haiku-4-5');
    await setFallbacks(llm.api, other, ['claude-sonnet-4-5']);
    expect(await answeredAfterFailure(llm.api, project)).toBe('claude-haiku-4-5');
  });
});
