import type http from 'node:http';
import type { Express } from 'express';
import { serverWithAppPrototypes } from './performance';

/** The HTTP server for an Express app: requests and responses built on the app's own prototypes (performance/app-prototypes.ts). */
export function createHttpServer(app: Express): http.Server {
  return serverWithAppPrototypes(app);
}

/** Listens with a server from `createHttpServer`; resolves once listening, rejects if it cannot. */
export function listenHttp(app: Express, port: number, host?: string): Promise<http.Server> {
  const server = createHttpServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.off('error', reject);
      resolve(server);
    };
    if (host === undefined) server.listen(port, listening);
    else server.listen(port, host, listening);
  });
}
