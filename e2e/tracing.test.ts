/**
 * Tracing across processes: four services, each in its own process, exporting over OTLP/HTTP
 * (auth and cms in protobuf, mailer and llm in JSON) to a receiver that decodes what arrives.
 */
import { randomBytes } from 'node:crypto';
import { waitFor } from '@platform/testkit';
import { call, prepareEnvironment, relayBroker, type PreparedEnvironment } from './harness/platform';
import { startServiceProcess, type ServiceProcess } from './harness/processes';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './harness/otlp-receiver';
import { startSendgridStandIn, tokenFrom } from './harness/stand-ins';
import { startHttpStub, sendJson, type HttpStub, type TcpProxy } from '@platform/testkit';
import { OPENAI_KEY, openAiStub, type OpenAiStub } from '../services/llm/test/support/vendor-stubs';

const describeE2E = process.env.TEST_DATABASE_URL && process.env.TEST_AMQP_URL ? describe : describe.skip;
jest.setTimeout(180_000);

const SERVICES = { auth: 'http/protobuf', cms: 'http/protobuf', mailer: 'http/json', llm: 'http/json' } as const;
type Traced = keyof typeof SERVICES;

const traceIdOf = (traceparent: unknown) => String(traceparent).split('-')[1];

describeE2E('one trace across services, the broker and the vendors', () => {
  let receiver: OtlpReceiver;
  let sendgrid: Awaited<ReturnType<typeof startSendgridStandIn>>;
  let openai: OpenAiStub;
  let hooks: HttpStub;
  let broker: TcpProxy;
  let env: PreparedEnvironment;
  const processes = {} as Record<Traced, ServiceProcess>;
  const url = (name: Traced, path: string) => `${processes[name].url}/v1${path}`;
  let headers: Record<string, string>;
  const secrets: string[] = [];
  const spansOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
  const spanOf = (traceId: string, service: string, name: string): ReceivedSpan | undefined =>
    spansOf(traceId).find((s) => s.resource['service.name'] === service && s.name === name);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    sendgrid = await startSendgridStandIn();
    openai = await openAiStub();
    hooks = await startHttpStub((_req, res) => sendJson(res, 200, { received: true }));
    const relayed = await relayBroker();
    broker = relayed.broker;
    env = await prepareEnvironment({
      amqpUrl: relayed.url,
      vendorEnv: { SENDGRID_API_BASE: sendgrid.url, OPENAI_BASE_URL: `${openai.url}/v1` },
      settings: { requireEmailVerification: true, appUrl: 'https://app.example.com' },
    });
    headers = {
      'x-api-key': env.project.apiKey,
      'x-secret-key': env.project.secretKey,
      'x-tenant-id': env.project.tenantId,
      'x-project-id': env.project.projectId,
    };
    secrets.push(env.project.apiKey, env.project.secretKey, OPENAI_KEY, 'SG.test-key');
    const names = Object.keys(SERVICES) as Traced[];
    // Two at a time: four cold starts at once would crowd the two cores.
    for (let i = 0; i < names.length; i += 2) {
      await Promise.all(
        names.slice(i, i + 2).map(async (name) => {
          processes[name] = await startServiceProcess(name, {
            ...env.common,
            DATABASE_URL: env.databaseUrls[name],
            ...(name === 'auth' ? env.authEnv : {}),
            LOG_LEVEL: 'http',
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
            OTEL_EXPORTER_OTLP_PROTOCOL: SERVICES[name],
            OTEL_TRACES_SAMPLER: 'parentbased_always_on',
            OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=e2e,team=platform',
            OTEL_BSP_SCHEDULE_DELAY: '100',
            OTEL_METRIC_EXPORT_INTERVAL: '500',
          });
        }),
      );
    }
    const mailer = await call(url('mailer', '/providers'), {
      method: 'POST',
      headers,
      body: {
        name: 'sendgrid',
        type: 'sendgrid',
        isDefault: true,
        config: { apiKey: 'SG.test-key', fromEmail: 'noreply@example.com' },
      },
    });
    expect(mailer.status).toBe(201);
    const llm = await call(url('llm', '/providers'), {
      method: 'POST',
      headers,
      body: { providerType: 'openai', apiKey: OPENAI_KEY },
    });
    expect(llm.status).toBe(200);
  }, 600_000);

  afterAll(async () => {
    await Promise.all(Object.values(processes).map((p) => p.stop()));
    await broker?.close();
    await env?.drop();
    await Promise.all([receiver, sendgrid, openai, hooks].map((server) => server?.close()));
  });

  it('a registration, its outbox event through RabbitMQ and the Mailer sending its e-mail are one trace', async () => {
    const address = `trace-${randomBytes(4).toString('hex')}@example.com`;
    secrets.push(address);
    const registered = await call(url('auth', '/register'), {
      method: 'POST',
      headers,
      body: { email: address, password: 'correct horse battery' },
    });
    expect(registered.status).toBe(201);
    const sent = await waitFor(() => sendgrid.requests.find((r) => r.rawBody.includes(address)), { timeoutMs: 60_000 });
    const email = sendgrid.emails.find((e) => e.to === address)!;
    secrets.push(tokenFrom(email));
    const traceId = traceIdOf(sent.headers.traceparent);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    // Each process exports in its own batches: the relay's publish span ends at the broker's
    // confirm and may reach the sink after the mailer's spans.
    await waitFor(
      () =>
        spanOf(traceId, 'auth', 'POST /v1/register') &&
        spanOf(traceId, 'auth', 'publish auth.user.registered') &&
        spanOf(traceId, 'mailer', 'consume auth.user.registered') &&
        spansOf(traceId).some(
          (s) => s.resource['service.name'] === 'mailer' && s.kind === 3 && s.name.startsWith('POST'),
        ),
      { timeoutMs: 30_000 },
    );
    const server = spanOf(traceId, 'auth', 'POST /v1/register')!;
    expect(server.encoding).toBe('protobuf');
    expect(server.attributes).toMatchObject({
      'http.route': '/v1/register',
      'platform.project.id': env.project.projectId,
      'platform.tenant.id': env.project.tenantId,
    });
    expect(server.resource).toMatchObject({
      'service.name': 'auth',
      'service.version': expect.any(String),
      'deployment.environment.name': 'e2e',
      team: 'platform',
      'service.instance.id': expect.any(String),
    });
    // The registration's statements, the outbox write and the relay's publish, in auth's part of the trace.
    expect(spanOf(traceId, 'auth', 'outbox auth.user.registered')).toBeDefined();
    expect(spanOf(traceId, 'auth', 'publish auth.user.registered')).toBeDefined();
    expect(spansOf(traceId).some((s) => s.attributes['db.collection.name'] === 'outbox')).toBe(true);
    const consume = spanOf(traceId, 'mailer', 'consume auth.user.registered')!;
    expect(consume.encoding).toBe('json');
    expect(consume.parentSpanId).toBe(spanOf(traceId, 'auth', 'outbox auth.user.registered')!.spanId);
  });

  it('a content webhook reaches the tenant with the traceparent of the request that caused it', async () => {
    const hook = await call(url('cms', '/webhooks'), {
      method: 'POST',
      headers,
      body: { url: `${hooks.url}/content`, events: ['content.created'] },
    });
    expect(hook.status).toBe(201);
    const created = await call(url('cms', '/content'), {
      method: 'POST',
      headers,
      body: { type: 'blog', title: 'Traced', content: 'First post' },
    });
    expect(created.status).toBe(201);
    const delivery = await waitFor(() => hooks.requests.find((r) => r.path === '/content'), { timeoutMs: 60_000 });
    const traceId = traceIdOf(delivery.headers.traceparent);
    await waitFor(() => spanOf(traceId, 'cms', 'POST /v1/content'), { timeoutMs: 30_000 });
  });

  it('a streamed chat completion has the GenAI attributes, its time to first chunk and its cost', async () => {
    const prompt = `the secret prompt ${randomBytes(4).toString('hex')}`;
    secrets.push(prompt);
    const res = await fetch(url('llm', '/chat/completions'), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: prompt }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const chat = await waitFor(
      () => receiver.spans.find((s) => s.name === 'chat gpt-4o-mini' && s.attributes['platform.llm.stream'] === true),
      { timeoutMs: 30_000 },
    );
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': expect.any(String),
      'gen_ai.usage.input_tokens': expect.any(Number),
      'gen_ai.usage.output_tokens': expect.any(Number),
      'gen_ai.response.finish_reasons': ['stop'],
      'platform.llm.attempt': 1,
    });
    expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(chat.attributes['platform.llm.cost_usd']).toBeGreaterThan(0);
    expect(chat.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThanOrEqual(0);
    // The vendor call itself, under the same request, carried our trace to the vendor.
    const vendorCall = openai.requests.find((r) => JSON.stringify(r.body).includes(prompt))!;
    expect(traceIdOf(vendorCall.headers.traceparent)).toBe(chat.traceId);
    expect(spanOf(chat.traceId, 'llm', 'POST /v1/chat/completions')).toBeDefined();
    await waitFor(() => receiver.metricNames.get('llm')?.has('gen_ai.client.token.usage'), { timeoutMs: 30_000 });
    expect(receiver.metricNames.get('llm')?.has('gen_ai.client.operation.duration')).toBe(true);
  });

  it('no key, token, e-mail address or prompt is in any exported attribute; log lines of a trace carry its ids', async () => {
    expect(receiver.spans.length).toBeGreaterThan(10);
    const exported = JSON.stringify(receiver.spans.map((s) => [s.name, s.attributes, s.resource]));
    for (const secret of secrets) expect(exported).not.toContain(secret);
    expect(exported).not.toMatch(/@example\.com/);

    const traced = processes.auth
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.trace_id);
    expect(traced.length).toBeGreaterThan(0);
    for (const line of traced) {
      expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});
