import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { listenHttp, type ConnectionLimits } from '@platform/http';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

function listening(server: Server): Listening {
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One of our services on a free loopback port, served the way `startService` serves it. */
export async function listenService(app: Express, limits?: Partial<ConnectionLimits>): Promise<Listening> {
  return listening(await listenHttp(app, 0, '127.0.0.1', limits));
}

/**
 * A baseline app on a free loopback port, served as stock Express serves it (`app.listen`): the
 * yardstick is what a developer gets from Express by hand, not Express with our server.
 */
export async function listenBare(app: Express): Promise<Listening> {
  return listening(
    await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    }),
  );
}
