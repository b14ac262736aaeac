import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express, { Router, type RequestHandler } from 'express';
import request from 'supertest';
import { createHttpApp, createLogger, tricksWith } from '../src';
import { directJsonBodies } from '../src/performance';

const logger = createLogger('test', 'error');

/** The shared stack with the trick on or off; the route echoes what the body parsing left on the request. */
function stack(direct: boolean) {
  const routes = Router();
  routes.post('/echo', (req, res) => {
    res.json({ body: req.body ?? null, raw: req.rawBody?.toString('base64') ?? null });
  });
  return createHttpApp({
    service: 'test',
    logger,
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
    bodyLimit: '1kb',
    tricks: tricksWith({ directJsonBodies: direct }),
  });
}

const utf16 = (text: string) => Buffer.from(text, 'utf16le');

/** Posts exactly these bytes (superagent would send a Buffer as JSON of its bytes). */
const postBytes = (app: http.RequestListener, path: string, headers: Record<string, string>, body: Buffer | string) =>
  request(app)
    .post(path)
    .set(headers)
    .serialize((bytes: unknown) => bytes as string)
    .send(Buffer.isBuffer(body) ? body : Buffer.from(body));

// [case, content-type, body bytes, extra headers]
const cases: [string, string, Buffer | string, Record<string, string>?][] = [
  ['an object', 'application/json', '{"name":"Ada","tags":["a",1,null]}'],
  ['an array', 'application/json; charset=utf-8', '[1,2,3]'],
  ['an uppercase quoted charset', 'Application/JSON; Charset="UTF-8"', '{"a":1}'],
  ['a byte-order mark', 'application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])],
  ['leading whitespace', 'application/json', ' \r\n\t{"a":1}'],
  ['a bare string', 'application/json', '"just text"'],
  ['a bare number', 'application/json', '42'],
  ['whitespace only', 'application/json', '   '],
  ['truncated JSON', 'application/json', '{"name": '],
  ['an empty body', 'application/json', ''],
  [
    'bytes that are not UTF-8',
    'application/json',
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  ],
  ['an escaped lone surrogate', 'application/json', '{"name":"a\\ud800"}'],
  ['an escaped surrogate pair', 'application/json', '{"name":"\\ud83d\\ude00"}'],
  ['UTF-16', 'application/json; charset=utf-16le', utf16('{"name":"Ada"}')],
  ['a lone surrogate in UTF-16', 'application/json; charset=utf-16le', utf16('{"name":"a\ud800"}')],
  ['an unsupported charset', 'application/json; charset=latin1', '{"a":1}'],
  ['a body over the limit', 'application/json', JSON.stringify({ name: 'x'.repeat(2000) })],
  ['a gzipped body', 'application/json', gzipSync('{"a":1}'), { 'content-encoding': 'gzip' }],
  ['another media type', 'text/plain', '{"a":1}'],
  ['a prototype key', 'application/json', '{"__proto__":{"admin":true},"constructor":1}'],
];

/** Runs `use` against `app` listening on a port of its own (for requests supertest cannot make), then closes it. */
async function serving(app: express.Express, use: (server: http.Server, port: number) => Promise<void>): Promise<void> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use(server, (server.address() as AddressInfo).port);
  } finally {
    server.close();
  }
}

describe('plain JSON bodies read directly', () => {
  const on = stack(true);
  const off = stack(false);

  it.each(cases)(
    'when the body is %s, then the answer is the same as through body-parser',
    async (_case, type, body, headers = {}) => {
      const send = (app: express.Express) => postBytes(app, '/v1/echo', { 'content-type': type, ...headers }, body);
      const [direct, parsed] = await Promise.all([send(on), send(off)]);
      expect({ status: direct.status, body: direct.body }).toEqual({ status: parsed.status, body: parsed.body });
    },
  );

  it.each([
    ['escaped in UTF-8', 400, 'application/json', Buffer.from('{"name":"a\\ud800"}')],
    ['raw in UTF-16 (no escape in the bytes)', 400, 'application/json; charset=utf-16le', utf16('{"name":"a\ud800"}')],
    [
      'as bytes that are not UTF-8 (read as U+FFFD)',
      200,
      'application/json',
      Buffer.from([0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d]),
    ],
  ])('when a lone surrogate comes %s, then the answer is %i', async (_case, status, type, body) => {
    const res = await postBytes(on, '/v1/echo', { 'content-type': type as string }, body as Buffer);
    expect(res.status).toBe(status);
  });

  it('when the body holds prototype names, then they are plain keys of the parsed object', async () => {
    const res = await request(on)
      .post('/v1/echo')
      .set('content-type', 'application/json')
      .send('{"__proto__":{"admin":true}}');
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ ['__proto__']: { admin: true } });
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
  });
});

describe('which requests take the direct path', () => {
  function withFallback() {
    const fellBack: string[] = [];
    const fallback: RequestHandler = (req, _res, next) => {
      fellBack.push(String(req.headers['x-case']));
      req.resume();
      req.on('end', () => next());
    };
    const app = express();
    app.use(directJsonBodies(fallback, 1024));
    app.post('/', (req, res) => res.json({ body: req.body ?? null }));
    return { app, fellBack };
  }

  it('when the body is plain JSON with a declared length, then body-parser is not called', async () => {
    const { app, fellBack } = withFallback();
    const res = await request(app).post('/').set('x-case', 'plain').send({ a: 1 });
    expect(res.body).toEqual({ body: { a: 1 } });
    expect(fellBack).toEqual([]);
  });

  it('when the body has been read, then what follows runs in the async context the request had', async () => {
    const context = new AsyncLocalStorage<string>();
    const app = express();
    app.use((req, _res, next) => context.run(String(req.headers['x-case']), next));
    app.use(directJsonBodies(express.json(), 1024));
    app.post('/', (req, res) => res.json({ context: context.getStore() ?? null, body: req.body }));
    const res = await request(app).post('/').set('x-case', 'traced').send({ a: 1 });
    expect(res.body).toEqual({ context: 'traced', body: { a: 1 } });
  });

  it('when the body comes chunked, without a declared length, then body-parser reads it', async () => {
    const { app, fellBack } = withFallback();
    await serving(app, async (_server, port) => {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const post = http.request({
          port,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-case': 'chunked' },
        });
        post.on('response', (res) => resolve(res.resume().statusCode)).on('error', reject);
        post.write('{');
        post.end('}');
      });
      expect(status).toBe(200);
      expect(fellBack).toEqual(['chunked']);
    });
  });

  it.each([
    ['gzip', { 'content-encoding': 'gzip' }],
    ['utf-16', { 'content-type': 'application/json; charset=utf-16le' }],
    ['json-patch', { 'content-type': 'application/json-patch+json' }],
  ])('when the request is %s, then body-parser reads it', async (name, headers) => {
    const { app, fellBack } = withFallback();
    await postBytes(app, '/', { 'content-type': 'application/json', 'x-case': name, ...headers }, '{}');
    expect(fellBack).toEqual([name]);
  });

  it('when the client goes away mid-body, then the request ends as aborted and the server keeps serving', async () => {
    const seen: unknown[] = [];
    let abortSeen!: () => void;
    const aborted = new Promise<void>((resolve) => (abortSeen = resolve));
    const app = express();
    app.use(directJsonBodies(express.json(), 1024));
    app.post('/', (req, res) => {
      seen.push(req.body);
      res.json({ ok: true });
    });
    app.use(((error, _req, res, _next) => {
      seen.push(error.type);
      abortSeen();
      res.status(400).end();
    }) as express.ErrorRequestHandler);
    await serving(app, async (server, port) => {
      const arrived = new Promise<void>((resolve) => server.once('request', () => resolve()));
      const cut = http.request({
        port,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '100' },
      });
      cut.on('error', () => undefined);
      cut.write('{"half": ');
      await arrived;
      cut.destroy();
      await aborted;
      const res = await request(server).post('/').send({ a: 1 });
      expect(res.body).toEqual({ ok: true });
      expect(seen).toEqual(['request.aborted', { a: 1 }]);
    });
  });
});
