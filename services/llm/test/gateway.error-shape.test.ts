import OpenAI from 'openai';
import type { TestProject } from '@platform/testkit';
import { hello, listen, sdkFor, type Listening } from './support/gateway-client';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;
let project: TestProject;

beforeAll(async () => {
  // A small body limit and failed-check limit, so that the size and flood refusals are quick to reach.
  llm = await startLlmTestService({ env: { BODY_LIMIT: '64kb', KEY_FAILURE_LIMIT: '2' } });
  project = await llm.svc.createProject();
  await configureVendors(llm.api, project);
  server = await listen(llm.svc.app);
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

/** OpenAI's error shape, as the SDKs read it. */
const openAiShaped = (type: string) => ({
  error: expect.objectContaining({ message: expect.any(String), type, param: null, code: expect.any(String) }),
});

/** The SDK, with its request body cut short on the way out: a truncated JSON body. */
const truncatingSdk = () =>
  new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: `${project.apiKey}.${project.secretKey}`,
    maxRetries: 0,
    fetch: (url, init) => fetch(url, { ...init, body: String(init?.body).slice(0, 20) }),
  });

const raw = (path: string, body: string, headers: Record<string, string> = project.headers) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });

describe("errors of the OpenAI-compatible routes raised before the route, in OpenAI's shape", () => {
  it('when the SDK sends a truncated JSON body, then it raises BadRequestError of type invalid_request_error', async () => {
    const error = await truncatingSdk()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: hello })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).type).toBe('invalid_request_error');
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('VALIDATION_ERROR');
  });

  it('when a truncated JSON body comes over raw HTTP, then the answer is 400 in OpenAI shape', async () => {
    const res = await raw('/v1/chat/completions', '{"model":"gpt-4o-mi');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject(openAiShaped('invalid_request_error'));
  });

  it.each(['/v1/responses', '/v1/embeddings'])(
    'when a body that is not JSON comes to %s, then the answer is 400 in OpenAI shape',
    async (path) => {
      const res = await raw(path, 'model=gpt-4o-mini&input=hi');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject(openAiShaped('invalid_request_error'));
      const truncated = await raw(path, '{"model":"gpt-4o-mi');
      expect(truncated.status).toBe(400);
      expect(await truncated.json()).toMatchObject(openAiShaped('invalid_request_error'));
    },
  );

  it('when the body is over the size limit, then the answer is 413 in OpenAI shape, through the SDK too', async () => {
    const big = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(70_000) }] });
    const res = await raw('/v1/chat/completions', big);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject(openAiShaped('invalid_request_error'));
    const error = await sdkFor(server.url, project, 'single')
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(70_000) }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('invalid_request_error');
  });

  it('when the route has no such method, then the 404 is in OpenAI shape', async () => {
    const res = await fetch(`${server.url}/v1/models/gpt-4o-mini/versions`, { headers: project.headers });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject(openAiShaped('not_found_error'));
  });

  it('when a flooding address is refused before any route, then the SDK raises RateLimitError', async () => {
    const bogus = { ...project.headers, 'x-api-key': 'pk_unknown_one' };
    for (let i = 0; i < 2; i++) expect((await raw('/v1/chat/completions', '{}', bogus)).status).toBe(401);
    const refused = await raw('/v1/chat/completions', '{}', { ...bogus, 'x-api-key': 'pk_unknown_two' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject(openAiShaped('rate_limit_error'));
    const error = await new OpenAI({
      baseURL: `${server.url}/v1`,
      apiKey: 'pk_unknown_three.sk_x',
      maxRetries: 0,
    }).models
      .list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  });
});
