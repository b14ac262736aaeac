import type http from 'node:http';
import type { Socket } from 'node:net';
import { clientAddressKey } from '@platform/tenancy';

/** What bounds a server's connections (HTTP_* settings; README "Configuration"). */
export interface ConnectionLimits {
  /** Longest a client may take to send a request's headers, an idle new connection included. */
  headersTimeoutMs: number;
  /** Longest a client may take to send a whole request, body included; the response is not bounded by it. */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may sit idle between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections per server; beyond, new ones are closed at once. */
  maxConnections: number;
  /** Open connections per client address (`clientAddressKey`), trusted proxies aside; beyond, closed at once. */
  maxConnectionsPerAddress: number;
  /** How often the header and request deadlines are checked (node's `connectionsCheckingInterval`). */
  checkIntervalMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: Readonly<ConnectionLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Above the 60 s idle time of common balancers, so the balancer, not us, closes an idle connection.
  keepAliveTimeoutMs: 65_000,
  maxConnections: 4_096,
  maxConnectionsPerAddress: 128,
  checkIntervalMs: 1_000,
});

/** The options node's server takes at creation for these limits. */
export const serverOptionsOf = (limits: ConnectionLimits): http.ServerOptions => ({
  headersTimeout: limits.headersTimeoutMs,
  requestTimeout: limits.requestTimeoutMs,
  keepAliveTimeout: limits.keepAliveTimeoutMs,
  connectionsCheckingInterval: limits.checkIntervalMs,
});

/**
 * Caps the server's connections in all and per client address: a connection over a cap is
 * closed as it arrives, before any of it is read, and no other connection is touched. Connections
 * from addresses `isTrustedProxy` vouches for are counted only in all: a proxy carries many clients.
 */
export function capConnections(
  server: http.Server,
  limits: ConnectionLimits,
  isTrustedProxy: (address: string) => boolean,
): void {
  server.maxConnections = limits.maxConnections;
  const perAddress = new Map<string, number>();
  const [serve] = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeListener('connection', serve);
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (isTrustedProxy(address)) return serve.call(server, socket);
    const key = clientAddressKey(address);
    const open = perAddress.get(key) ?? 0;
    if (open >= limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    perAddress.set(key, open + 1);
    socket.once('close', () => {
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left > 0) perAddress.set(key, left);
      else perAddress.delete(key);
    });
    serve.call(server, socket);
  });
}
