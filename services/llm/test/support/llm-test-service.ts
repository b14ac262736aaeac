import type { EventBus } from '@platform/events';
import path from 'node:path';
import {
  apiClient,
  createTestService,
  type ApiClient,
  type CoverageOptions,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { llmService, type LlmServiceShared } from '../../src';
import { openapi } from '../../src/openapi';
import type { ProviderType } from '../../src/vendors/vendor-types';
import {
  ANTHROPIC_KEY,
  anthropicStub,
  OPENAI_KEY,
  openAiStub,
  type AnthropicStub,
  type OpenAiStub,
} from './vendor-stubs';

/** LLM takes part in the run-wide check that every documented operation and status is exercised. */
export const coverage: CoverageOptions = {
  service: 'llm',
  testDir: path.join(__dirname, '..'),
  exempt: [
    {
      pattern: ' (429|503)$',
      reason: 'the shared per-project limits and database outage: packages/tenancy and e2e tests',
    },
    {
      pattern: '^POST /chat/completions (400|403|404|500|502)$',
      reason: 'sent through the official OpenAI SDK over a socket: gateway.sdk and gateway.retries tests',
    },
    {
      pattern: '^POST /(responses|embeddings) (413|500|502)$',
      reason:
        'the shared body limit (gateway.error-shape) and vendor failures, through the same attempts as /chat/completions (gateway.retries, responses.gateway)',
    },
  ],
};

/** The shared test client of the LLM tests, counted towards `coverage`. */
export const llmApi = (app: Parameters<typeof apiClient>[0]): ApiClient => apiClient(app, { openapi, coverage });

export interface LlmTestService {
  svc: TestService<LlmServiceShared>;
  api: ApiClient;
  openai: OpenAiStub;
  anthropic: AnthropicStub;
  /** A new project with both stand-ins' keys stored. */
  projectWithVendors(): Promise<TestProject>;
  /** Closes the service and both vendor stand-ins. */
  close(): Promise<void>;
}

/**
 * The LLM service on fresh databases, pointed at the OpenAI and Anthropic stand-ins.
 * `llmEnv` is the service's own settings (LLM_*), `env` anything else; both reach its config.
 */
export async function startLlmTestService(
  options: { llmEnv?: Record<string, string>; env?: Record<string, string>; bus?: EventBus } = {},
): Promise<LlmTestService> {
  const openai = await openAiStub();
  const anthropic = await anthropicStub();
  const svc = await createTestService(llmService, {
    bus: options.bus,
    env: {
      OPENAI_BASE_URL: `${openai.url}/v1`,
      ANTHROPIC_BASE_URL: anthropic.url,
      LLM_VENDOR_MAX_RETRIES: '0',
      ...options.llmEnv,
      ...options.env,
    },
  });
  const api = llmApi(svc.app);
  return {
    svc,
    api,
    openai,
    anthropic,
    projectWithVendors: async () => {
      const project = await svc.createProject();
      await configureVendors(api, project);
      return project;
    },
    close: async () => {
      await svc.close();
      await openai.close();
      await anthropic.close();
    },
  };
}

const STUB_KEYS: Record<ProviderType, string> = { openai: OPENAI_KEY, anthropic: ANTHROPIC_KEY };

/** Stores the stand-ins' keys for the project (both vendors unless told otherwise). */
export async function configureVendors(
  api: ApiClient,
  project: TestProject,
  providers: ProviderType[] = ['openai', 'anthropic'],
): Promise<void> {
  for (const providerType of providers) {
    const res = await api.post('/v1/providers', {
      headers: project.headers,
      body: { providerType, apiKey: STUB_KEYS[providerType] },
    });
    if (res.status !== 200) throw new Error(`provider ${providerType} not stored: ${res.status}`);
  }
}
