import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import request from 'supertest';
import { requireBearer, signAccessToken } from '@platform/tenancy';
import { testJwtKeys } from '@platform/testkit';
import { boundedJsonBody, createHttpApp, createLogger, tricksWith } from '../src';

const keys = testJwtKeys();
const token = signAccessToken(
  { userId: randomUUID(), tenantId: 't', projectId: 'p', email: 'a@example.com', tokenVersion: 0 },
  keys.privateKey,
);

function appWith(directJsonBodies: boolean) {
  const routes = Router();
  const bearer = requireBearer(keys.publicKey);
  routes.post('/private', bearer, (req, res) => {
    res.json({ keys: Object.keys(req.body as object) });
  });
  const nested = Router();
  nested.post('/deep', bearer, (req, res) => {
    res.json({ keys: Object.keys(req.body as object) });
  });
  routes.use('/nested', nested);
  routes.post('/public', boundedJsonBody('1kb'), (req, res) => {
    res.json({ keys: Object.keys(req.body as object) });
  });
  return createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
    tricks: tricksWith({ directJsonBodies }),
  });
}

/** A large JSON body with a marker, to recognise it among JSON.parse's calls. */
function markedBody(size: number) {
  const marker = `marker-${randomUUID()}`;
  return { marker, text: JSON.stringify({ [marker]: 'x'.repeat(size) }) };
}

let parse: jest.SpyInstance;
const parsedWith = (marker: string) => parse.mock.calls.some(([text]) => String(text).includes(marker));

beforeEach(() => {
  parse = jest.spyOn(JSON, 'parse');
});
afterEach(() => parse.mockRestore());

describe.each([
  ['the direct reader', true],
  ["body-parser's", false],
])('bodies read after the credential check (%s)', (_name, direct) => {
  const app = appWith(direct);
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    request(app)
      .post(path)
      .set({ 'content-type': 'application/json', ...headers })
      .send(body);

  it('when a request without a valid credential sends a large body, then it gets 401 and its body is never parsed', async () => {
    const { marker, text } = markedBody(900_000);
    const res = await post('/v1/private', text);
    expect(res.status).toBe(401);
    expect(parsedWith(marker)).toBe(false);
    const wrong = await post('/v1/nested/deep', text, { authorization: 'Bearer not-a-token' });
    expect(wrong.status).toBe(401);
    expect(parsedWith(marker)).toBe(false);
  });

  it('when the credential is valid, then the body is parsed and reaches the handler', async () => {
    const { marker, text } = markedBody(10);
    const res = await post('/v1/nested/deep', text, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keys: [marker] });
    expect(parsedWith(marker)).toBe(true);
  });

  it('when a body is sent to a path with no route, then it is 404 and never parsed', async () => {
    const { marker, text } = markedBody(1_000);
    expect((await post('/v1/nowhere', text)).status).toBe(404);
    expect(parsedWith(marker)).toBe(false);
  });

  it('when a public route bounds its body, then a larger one is 413 unparsed and a small one is served', async () => {
    const big = markedBody(2_000);
    const res = await post('/v1/public', big.text);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(parsedWith(big.marker)).toBe(false);
    const small = markedBody(10);
    expect((await post('/v1/public', small.text)).body).toEqual({ keys: [small.marker] });
  });

  it('when a refused request has a large body left unread, then the connection is closed after the answer', async () => {
    const { text } = markedBody(100_000);
    const res = await post('/v1/private', text);
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('close');
  });
});
