import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { listenHttp } from '@platform/tenancy';

/** Listens on a free loopback port; returns the base URL and a close function. */
export async function listen(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = await listenHttp(app, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
