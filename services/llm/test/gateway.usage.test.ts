import type { TestProject } from '@platform/testkit';
import { waitFor } from '@platform/testkit';
import { collect, hello, listen, sdkFor, type Listening } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { LLM_VENDOR_TIMEOUT_MS: '5000' } });
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

type Log = { model: string; status: string; promptTokens: number; completionTokens: number; costUsd: number | null };

async function logsOf(project: TestProject, count: number): Promise<Log[]> {
  await llm.svc.parts.shared.logs.flush();
  return waitFor(
    async () => {
      const res = await llm.api.get(`/v1/logs/${project.tenantId}/${project.projectId}`, { headers: project.headers });
      return res.body.logs.length >= count ? (res.body.logs as Log[]) : null;
    },
    { timeoutMs: 5_000, intervalMs: 20 },
  );
}

describe('usage and cost of gateway requests', () => {
  it.each(['gpt-4o-mini', 'claude-sonnet-4-5'])(
    'when %s is streamed with and without include_usage, then each log has the same tokens and cost as the whole answer',
    async (model) => {
      const project = await llm.projectWithVendors();
      const sdk = sdkFor(server.url, project);
      await sdk.chat.completions.create({ model, messages: hello });
      await collect(await sdk.chat.completions.create({ model, messages: hello, stream: true }));
      await collect(
        await sdk.chat.completions.create({
          model,
          messages: hello,
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      const logs = await logsOf(project, 3);
      const expected = model.startsWith('gpt')
        ? { promptTokens: 11, completionTokens: 7, costUsd: 0.00000555 }
        : { promptTokens: 25, completionTokens: 5, costUsd: 0.0001434 };
      expect(logs).toHaveLength(3);
      for (const log of logs) expect(log).toMatchObject({ model, status: 'success', ...expected });
    },
  );

  it.each(['gpt-4o-mini-trickle-20', 'claude-sonnet-4-5-trickle-20'])(
    'when the client of a %s stream goes away, then the vendor call stops and the tokens used so far are logged',
    async (model) => {
      const project = await llm.projectWithVendors();
      const vendor = model.startsWith('gpt') ? llm.openai : llm.anthropic;
      const abandonedBefore = vendor.abandoned;
      const stream = await sdkFor(server.url, project).chat.completions.create({
        model,
        messages: hello,
        stream: true,
      });
      let received = 0;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) received++;
        if (received === 3) break; // leaving the loop aborts the SDK's request
      }
      await waitFor(() => vendor.abandoned > abandonedBefore, { timeoutMs: 5_000, intervalMs: 10 });
      const [log] = await logsOf(project, 1);
      expect(log).toMatchObject({ model, status: 'error', error: 'client disconnected' });
      expect(log.completionTokens).toBeGreaterThanOrEqual(3);
      expect(log.promptTokens).toBeGreaterThan(0);
    },
  );

  it('when the model has no price, then its cost is null in the log, the header is absent and stats count it apart', async () => {
    const project = await llm.projectWithVendors();
    const sdk = sdkFor(server.url, project);
    const { response } = await sdk.chat.completions.create({ model: 'gpt-3.5-turbo', messages: hello }).withResponse();
    expect(response.headers.get('x-llm-cost-usd')).toBeNull();
    await sdk.chat.completions.create({ model: 'gpt-4o-mini', messages: hello });
    await sdk.chat.completions.create({ model: 'claude-sonnet-4-5', messages: hello });
    const logs = await logsOf(project, 3);
    expect(logs.find((l) => l.model === 'gpt-3.5-turbo')!.costUsd).toBeNull();
    const stats = await llm.api.get(`/v1/stats/${project.tenantId}/${project.projectId}`, { headers: project.headers });
    expect(stats.body.costUsd).toBeCloseTo(0.00000555 + 0.0001434, 10);
    expect(stats.body.unpricedRequests).toBe(1);
    const byModel = Object.fromEntries(
      stats.body.byModel.map((m: { model: string; costUsd: number }) => [m.model, m.costUsd]),
    );
    expect(byModel).toEqual({ 'claude-sonnet-4-5': 0.0001434, 'gpt-3.5-turbo': null, 'gpt-4o-mini': 0.00000555 });
    const byProvider = Object.fromEntries(
      stats.body.byProvider.map((p: { provider: string; costUsd: number }) => [p.provider, p.costUsd]),
    );
    expect(byProvider).toEqual({ anthropic: 0.0001434, openai: 0.00000555 });
  });

  it('when /v1/completions answers, then its log carries the cost too', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o-mini', messages: hello },
    });
    const [log] = await logsOf(project, 1);
    expect(log.costUsd).toBe(0.00000555);
  });
});
