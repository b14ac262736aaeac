import type { TestProject } from '@platform/testkit';
import { waitFor } from '@platform/testkit';
import { hello, listen, type Listening } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;

beforeAll(async () => {
  // Three streams per process, one per project (the default share would be a quarter of 3: 1).
  llm = await startLlmTestService({ llmEnv: { LLM_GATEWAY_MAX_STREAMS: '3' } });
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

/** A stream that trickles a token every 50 ms until the client leaves; resolves once its answer has begun. */
async function open(project: TestProject, controller = new AbortController()) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...project.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini-trickle-50', messages: hello, stream: true }),
    signal: controller.signal,
  });
  return { res, close: () => controller.abort() };
}

async function refusalOf(project: TestProject) {
  const { res } = await open(project);
  const body = (await res.json()) as { error: Record<string, unknown> };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
}

describe('open streams per project and per process', () => {
  it('when a project holds its share of the streams, then its next stream gets 429 RATE_LIMITED in OpenAI’s shape while another project still opens one', async () => {
    const [busy, other, third] = await Promise.all([
      llm.projectWithVendors(),
      llm.projectWithVendors(),
      llm.projectWithVendors(),
    ]);
    expect(llm.svc.parts.shared.config.gatewayMaxStreamsPerProject).toBe(1);
    const held = await open(busy);
    expect(held.res.status).toBe(200);

    const refused = await refusalOf(busy);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      type: 'rate_limit_error',
      param: null,
      message: 'Too many open streams for this project',
    });

    const alongside = await open(other);
    expect(alongside.res.status).toBe(200);
    const last = await open(third);
    expect(last.res.status).toBe(200);

    // Every stream of the process is open now: a fourth project waits for one, whatever its share.
    const fourth = await refusalOf(await llm.projectWithVendors());
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toMatchObject({ code: 'RATE_LIMITED', message: 'This replica has no stream free' });

    held.close();
    await waitFor(() => llm.svc.parts.shared.streams.holding(busy.projectId) === 0);
    const again = await open(busy);
    expect(again.res.status).toBe(200);
    [again, alongside, last].forEach((stream) => stream.close());
  });
});
