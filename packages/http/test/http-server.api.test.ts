import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { createHttpApp, createLogger, listenHttp } from '../src';

function buildApp() {
  const routes = Router();
  routes.post('/echo', (req, res) => {
    res.status(201).json({ body: req.body, contentType: req.get('content-type'), ip: req.ip });
  });
  const app = createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: { openapi: '3.1.0' },
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
  });
  return app;
}

/** One request over a real socket, keep-alive like a client app. */
function post(server: http.Server, agent: http.Agent, body: unknown): Promise<{ status: number; body: unknown }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        path: '/v1/echo',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('listenHttp', () => {
  it('when requests arrive, then they are built on the app’s prototypes and Express works on them as usual', async () => {
    const app = buildApp();
    const server = await listenHttp(app, 0, '127.0.0.1');
    // As the server built them, before Express sees them.
    const prototypes: { request: boolean; response: boolean }[] = [];
    server.prependListener('request', (req, res) => {
      prototypes.push({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
      });
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await post(server, agent, { n: 1 });
      const second = await post(server, agent, { n: 2 }); // the same connection
      expect(first).toEqual({
        status: 201,
        body: { body: { n: 1 }, contentType: 'application/json', ip: '127.0.0.1' },
      });
      expect(second.body).toMatchObject({ body: { n: 2 } });
      // So Express's own setPrototypeOf changes nothing (the point of createHttpServer).
      expect(prototypes).toEqual([
        { request: true, response: true },
        { request: true, response: true },
      ]);
    } finally {
      agent.destroy();
      server.close();
    }
  });

  it('when the port is taken, then it rejects instead of listening elsewhere', async () => {
    const app = buildApp();
    const first = await listenHttp(app, 0, '127.0.0.1');
    try {
      const { port } = first.address() as AddressInfo;
      await expect(listenHttp(app, port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      first.close();
    }
  });
});
