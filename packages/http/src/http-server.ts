import type http from 'node:http';
import type { Express } from 'express';
import { capConnections, DEFAULT_CONNECTION_LIMITS, serverOptionsOf, type ConnectionLimits } from './connection-limits';
import { serverWithAppPrototypes } from './performance';

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The HTTP server for an Express app: requests and responses built on the app's own prototypes
 * (performance/app-prototypes.ts), its connections bounded by `limits` (header and request
 * deadlines, keep-alive idle time, caps in all and per client address).
 */
export function createHttpServer(app: Express, limits: Partial<ConnectionLimits> = {}): http.Server {
  const bounded = { ...DEFAULT_CONNECTION_LIMITS, ...limits };
  const server = serverWithAppPrototypes(app, serverOptionsOf(bounded));
  // Express compiles its `trust proxy` setting into this function: the peers whose forwarded address counts.
  const trusts = app.get('trust proxy fn') as TrustFunction | undefined;
  capConnections(server, bounded, (address) => trusts?.(address, 0) ?? false);
  return server;
}

/** Listens with a server from `createHttpServer`; resolves once listening, rejects if it cannot. */
export function listenHttp(
  app: Express,
  port: number,
  host?: string,
  limits?: Partial<ConnectionLimits>,
): Promise<http.Server> {
  const server = createHttpServer(app, limits);
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
