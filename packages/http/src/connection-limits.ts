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

/** The parts of node's listening handle (net.js `setupListenHandle`) that accept a connection. */
interface ListeningHandle {
  onconnection(this: ListeningHandle, status: number, client?: AcceptedHandle): void;
}

/** A just-accepted connection before node wraps it in a Socket. */
interface AcceptedHandle {
  getpeername?(out: { address?: string }): number;
  close(): void;
}

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
  /** The per-address key of a connection that is to be counted, `null` for a trusted proxy's. */
  const keyOf = (address: string) => (isTrustedProxy(address) ? null : clientAddressKey(address));
  const isFull = (key: string) => (perAddress.get(key) ?? 0) >= limits.maxConnectionsPerAddress;

  const [serve] = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeListener('connection', serve);
  server.on('connection', (socket: Socket) => {
    const key = keyOf(socket.remoteAddress ?? '');
    if (key === null) return serve.call(server, socket);
    if (isFull(key)) {
      socket.destroy();
      return;
    }
    perAddress.set(key, (perAddress.get(key) ?? 0) + 1);
    socket.once('close', () => {
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left > 0) perAddress.set(key, left);
      else perAddress.delete(key);
    });
    serve.call(server, socket);
  });

  // A client over its cap can open hundreds of connections a second. Refused at the listening
  // handle, as node's own `maxConnections` is, each costs a close instead of a Socket, its
  // streams and their teardown; the listener above stays the count, and the refusal wherever
  // the handle is not node's TCP one.
  const refuseAtTheHandle = () => {
    const handle = (server as unknown as { _handle?: ListeningHandle | null })._handle;
    if (!handle || typeof handle.onconnection !== 'function' || wrappedHandles.has(handle)) return;
    wrappedHandles.add(handle);
    const accept = handle.onconnection;
    handle.onconnection = function (status, client) {
      const peer: { address?: string } = {};
      if (status === 0 && client?.getpeername?.(peer) === 0 && peer.address) {
        const key = keyOf(peer.address);
        if (key !== null && isFull(key)) return client.close();
      }
      accept.call(this, status, client);
    };
  };
  server.on('listening', refuseAtTheHandle);
  if (server.listening) refuseAtTheHandle();
}

const wrappedHandles = new WeakSet<ListeningHandle>();
