import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Router } from 'express';
import { requestFrom } from '@platform/testkit';
import { createHttpApp, createLogger, listenHttp, type ConnectionLimits } from '../src';

function buildApp(trustProxy = false) {
  const routes = Router();
  routes.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  routes.post('/echo', (req, res) => {
    res.json({ received: req.body as unknown });
  });
  // A long response, as a stream or an SSE route sends one: a chunk every 100 ms.
  routes.get('/stream', (_req, res) => {
    res.setHeader('content-type', 'text/event-stream');
    let sent = 0;
    const timer = setInterval(() => {
      res.write(`data: ${++sent}\n\n`);
      if (sent === 12) {
        clearInterval(timer);
        res.end();
      }
    }, 100);
    res.on('close', () => clearInterval(timer));
  });
  return createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: { openapi: '3.1.0' },
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
    trustProxy: trustProxy ? ['loopback'] : false,
  });
}

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];

async function serve(limits: Partial<ConnectionLimits>, trustProxy = false): Promise<number> {
  const server = await listenHttp(buildApp(trustProxy), 0, '::', { checkIntervalMs: 50, ...limits });
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

interface Client {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves with the milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
}

/** A raw client from `localAddress`; ends with the test (at most a few per test). */
async function connect(port: number, localAddress = '127.0.0.1', host = '127.0.0.1'): Promise<Client> {
  const started = Date.now();
  const socket = net.connect({ port, host, localAddress });
  sockets.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed };
}

/** The answer a held connection gives to one last request (it asks the server to close after it). */
async function lastAnswerOf(client: Client): Promise<string> {
  client.socket.write('GET /v1/hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await client.closed;
  return client.received();
}

/** Writes `text` a byte at a time, `everyMs` apart, until it is all sent or the socket closes. */
function trickle(socket: net.Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

/** The connection's closing time, or `Infinity` when it is still open after `withinMs`. */
const closedWithin = (client: Client, withinMs: number) =>
  Promise.race([client.closed, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), withinMs))]);

describe('header and request deadlines', () => {
  it('when a new connection sends nothing, then it is closed once the header deadline passes', async () => {
    const port = await serve({ headersTimeoutMs: 300 });
    const idle = await connect(port);
    expect(await closedWithin(idle, 3_000)).toBeLessThan(1_000);
  });

  it('when a client sends its headers a byte at a time, then it gets 408 and is closed at the header deadline', async () => {
    const port = await serve({ headersTimeoutMs: 300 });
    const slow = await connect(port);
    trickle(slow.socket, 'GET /v1/hello HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100), 50);
    expect(await closedWithin(slow, 3_000)).toBeLessThan(1_000);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('when a client sends its body a byte at a time, then it is closed at the request deadline', async () => {
    const port = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const slow = await connect(port);
    slow.socket.write(
      'POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n',
    );
    trickle(slow.socket, `{"a":"${'b'.repeat(190)}"}`, 50);
    expect(await closedWithin(slow, 3_000)).toBeLessThan(1_500);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('when a response streams for longer than the request deadline, then it is sent whole', async () => {
    const port = await serve({ headersTimeoutMs: 200, requestTimeoutMs: 300 });
    const started = Date.now();
    const res = await requestFrom({ port, localAddress: '127.0.0.1', path: '/v1/stream' });
    expect(Date.now() - started).toBeGreaterThan(1_000);
    expect(res.status).toBe(200);
    expect(String(res.body).match(/^data: /gm)).toHaveLength(12);
  });

  it('when a kept-alive connection sits idle past the keep-alive time, then it is closed', async () => {
    const port = await serve({ keepAliveTimeoutMs: 300 });
    const client = await connect(port);
    client.socket.write('GET /v1/hello HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await closedWithin(client, 3_000)).toBeLessThan(1_500);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('connection caps', () => {
  it('when one address holds its cap of connections, then its next one is closed at once, another address is served and its held ones still work', async () => {
    const port = await serve({ maxConnectionsPerAddress: 3 });
    const held = [await connect(port, '127.0.0.2'), await connect(port, '127.0.0.2'), await connect(port, '127.0.0.2')];
    const over = await connect(port, '127.0.0.2');
    expect(await closedWithin(over, 2_000)).toBeLessThan(500);
    expect(over.received()).toBe('');
    expect((await requestFrom({ port, localAddress: '127.0.0.3', path: '/v1/hello' })).status).toBe(200);
    expect(await lastAnswerOf(held[0])).toMatch(/^HTTP\/1\.1 200/);
    // A closed connection frees its place.
    expect((await requestFrom({ port, localAddress: '127.0.0.2', path: '/v1/hello' })).status).toBe(200);
  });

  it('when an address over its cap connects, then it is closed before node makes a socket of it', async () => {
    const port = await serve({ maxConnectionsPerAddress: 2 });
    const seen: string[] = [];
    servers[0].prependListener('connection', (socket: net.Socket) => seen.push(socket.remoteAddress ?? ''));
    await connect(port, '127.0.0.2');
    await connect(port, '127.0.0.2');
    const over = await connect(port, '127.0.0.2');
    await over.closed;
    expect(seen).toEqual(['::ffff:127.0.0.2', '::ffff:127.0.0.2']);
  });

  it('when an IPv4 client connects in both forms (plain and IPv4-mapped), then they count as one address', async () => {
    const port = await serve({ maxConnectionsPerAddress: 2 });
    await connect(port, '127.0.0.2');
    await connect(port, '::ffff:127.0.0.2', '::ffff:127.0.0.1');
    const over = await connect(port, '::ffff:127.0.0.2', '::ffff:127.0.0.1');
    expect(await closedWithin(over, 2_000)).toBeLessThan(500);
    expect((await requestFrom({ port, localAddress: '127.0.0.3', path: '/v1/hello' })).status).toBe(200);
  });

  it('when connections reach the server other than through its own listening handle, then the cap still holds', async () => {
    const port = await serve({ maxConnectionsPerAddress: 2 });
    // A front that accepts and passes each connection on, as a socket-passing supervisor does.
    const front = net.createServer((socket) => servers[0].emit('connection', socket));
    await new Promise<void>((resolve) => front.listen(0, '::', resolve));
    const frontPort = (front.address() as AddressInfo).port;
    try {
      const held = [await connect(frontPort, '127.0.0.2'), await connect(frontPort, '127.0.0.2')];
      const over = await connect(frontPort, '127.0.0.2');
      expect(await closedWithin(over, 2_000)).toBeLessThan(500);
      expect(await lastAnswerOf(held[0])).toMatch(/^HTTP\/1\.1 200/);
      expect((await requestFrom({ port, localAddress: '127.0.0.2', path: '/v1/hello' })).status).toBe(200);
    } finally {
      for (const socket of sockets.splice(0)) socket.destroy();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('when the server holds its cap of connections, then a new one is closed at once and the held ones still work', async () => {
    const port = await serve({ maxConnections: 2 });
    const held = [await connect(port, '127.0.0.2'), await connect(port, '127.0.0.3')];
    const over = await connect(port, '127.0.0.4');
    expect(await closedWithin(over, 2_000)).toBeLessThan(500);
    expect(await lastAnswerOf(held[1])).toMatch(/^HTTP\/1\.1 200/);
  });

  it('when connections come from a trusted proxy, then the per-address cap does not apply to it', async () => {
    const port = await serve({ maxConnectionsPerAddress: 2 }, true);
    const held = [await connect(port, '127.0.0.2'), await connect(port, '127.0.0.2'), await connect(port, '127.0.0.2')];
    expect(await closedWithin(held[2], 300)).toBe(Infinity);
    const res = await requestFrom({
      port,
      localAddress: '127.0.0.2',
      path: '/v1/hello',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.status).toBe(200);
  });
});
