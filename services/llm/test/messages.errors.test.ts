import Anthropic from '@anthropic-ai/sdk';
import type { TestProject } from '@platform/testkit';
import { listen, type Listening } from './support/gateway-client';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';
import { anthropicSdkFor, greeting } from './support/messages-client';

let llm: LlmTestService;
let server: Listening;
let project: TestProject;

beforeAll(async () => {
  // A small body limit and failed-check limit, so that the size and flood refusals are quick to reach.
  llm = await startLlmTestService({ env: { BODY_LIMIT: '64kb', KEY_FAILURE_LIMIT: '8' } });
  project = await llm.svc.createProject();
  await configureVendors(llm.api, project);
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

/** Anthropic's error shape, as its SDKs read it. */
const anthropicShaped = (type: string) => ({
  type: 'error',
  error: expect.objectContaining({ type, message: expect.any(String) }),
});

const post = (path: string, body: string, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });

const single = () => ({ 'x-api-key': `${project.apiKey}.${project.secretKey}` });
const ask = { model: 'claude-sonnet-4-5', max_tokens: 50, messages: greeting };
const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined).catch((e: unknown) => e);

describe("errors of /v1/messages, in Anthropic's shape", () => {
  it('when the body is not JSON, then the answer is 400 invalid_request_error', async () => {
    const res = await post('/v1/messages', '{"model":"claude-', single());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject(anthropicShaped('invalid_request_error'));
  });

  it('when the body is over the size limit, then the answer is 413 request_too_large', async () => {
    const big = JSON.stringify({ ...ask, messages: [{ role: 'user', content: 'x'.repeat(70_000) }] });
    const res = await post('/v1/messages', big, single());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject(anthropicShaped('request_too_large'));
  });

  it('when max_tokens is missing, then the SDK raises BadRequestError naming it', async () => {
    const error = await errorOf(
      anthropicSdkFor(server.url, project).messages.create({ model: 'claude-sonnet-4-5', messages: greeting } as never),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', details: [{ path: 'max_tokens', message: 'is required' }] },
    });
  });

  it('when the credential is wrong, then the SDK raises AuthenticationError', async () => {
    const wrong = new Anthropic({ baseURL: server.url, apiKey: `${project.apiKey}.sk_wrong`, maxRetries: 0 });
    expect(await errorOf(wrong.messages.create(ask))).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it("when a project's public key is joined with another project's secret, then the answer is 401", async () => {
    const other = await llm.svc.createProject();
    const mixed = new Anthropic({ baseURL: server.url, apiKey: `${project.apiKey}.${other.secretKey}`, maxRetries: 0 });
    expect(await errorOf(mixed.messages.create(ask))).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it('when the Anthropic-style x-api-key credential is sent to another route, then it is not accepted there', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: greeting });
    const res = await post('/v1/chat/completions', body, single());
    expect(res.status).toBe(401);
    const providers = await fetch(`${server.url}/v1/providers`, { headers: single() });
    expect(providers.status).toBe(401);
  });

  it("when the project has not configured the model's vendor, then PermissionDeniedError and no vendor call", async () => {
    const bare = await llm.svc.createProject();
    const before = llm.anthropic.requests.length;
    const error = await errorOf(anthropicSdkFor(server.url, bare).messages.create(ask));
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(llm.anthropic.requests.length).toBe(before);
  });

  it("when a request names another project's ids with its own key, then it is refused and that project's vendor key is never used", async () => {
    const victim = await llm.projectWithVendors();
    const attacker = await llm.svc.createProject();
    const before = llm.anthropic.requests.length;
    const headers = { ...attacker.headers, 'x-tenant-id': victim.tenantId, 'x-project-id': victim.projectId };
    const res = await post('/v1/messages', JSON.stringify(ask), headers);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject(anthropicShaped('authentication_error'));
    expect(llm.anthropic.requests.length).toBe(before);
  });

  it('when the model is unknown, then the SDK raises NotFoundError (not_found_error), as Anthropic answers it', async () => {
    const error = await errorOf(anthropicSdkFor(server.url, project).messages.create({ ...ask, model: 'llama-3' }));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject(anthropicShaped('not_found_error'));
  });

  it('when the vendor fails for good, then the SDK raises InternalServerError in its shape', async () => {
    llm.anthropic.faults.push({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const error = await errorOf(
      anthropicSdkFor(server.url, project).messages.create({
        ...ask,
        fallbacks: [],
      } as Anthropic.MessageCreateParamsNonStreaming),
    );
    llm.anthropic.faults.length = 0;
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject(anthropicShaped('api_error'));
  });

  it('when a flooding address is refused before any route, then the SDK raises RateLimitError, and a known credential still passes', async () => {
    const bogus = { ...project.headers, 'x-api-key': 'pk_unknown_one' };
    // The tests before have spent some of this address's failed checks: up to the limit, 401s.
    let status = 401;
    for (let i = 0; i < 8 && status === 401; i++) status = (await post('/v1/messages', '{}', bogus)).status;
    expect(status).toBe(429);
    const refused = await post('/v1/messages', '{}', { 'x-api-key': 'pk_unknown_two.sk_x' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject(anthropicShaped('rate_limit_error'));
    const flooder = new Anthropic({ baseURL: server.url, apiKey: 'pk_unknown_three.sk_x', maxRetries: 0 });
    expect(await errorOf(flooder.messages.create(ask))).toBeInstanceOf(Anthropic.RateLimitError);
    const answer = await anthropicSdkFor(server.url, project).messages.create(ask);
    expect(answer.type).toBe('message');
  });
});
