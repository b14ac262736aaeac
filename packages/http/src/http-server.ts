import http from 'node:http';
import type { Express } from 'express';
import { serverWithAppPrototypes } from './performance';

/**
 * The HTTP server for an Express app: requests and responses built on the app's own prototypes
 * (performance/app-prototypes.ts), or node's stock server when `appPrototypes` is off.
 */
export function createHttpServer(app: Express, options: { appPrototypes?: boolean } = {}): http.Server {
  return options.appPrototypes === false ? http.createServer(app) : serverWithAppPrototypes(app);
}

/** Listens with a server from `createHttpServer`; resolves once listening, rejects if it cannot. */
export function listenHttp(
  app: Express,
  port: number,
  host?: string,
  options: { appPrototypes?: boolean } = {},
): Promise<http.Server> {
  const server = createHttpServer(app, options);
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
