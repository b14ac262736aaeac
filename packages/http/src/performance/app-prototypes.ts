import http from 'node:http';
import type { Express } from 'express';

/** node:http's request and response constructors are plain functions (up to Node 24 at least). */
const functionConstructors = [http.IncomingMessage, http.ServerResponse].every(
  (constructor) => !Function.prototype.toString.call(constructor).startsWith('class'),
);

/**
 * A node:http server whose requests and responses are built on the app's own prototypes
 * (`app.request`, `app.response`) from the start.
 *
 * Express gives every incoming request and response those prototypes with
 * `Object.setPrototypeOf`; after that call V8 handles the pair slowly and keeps them, and what
 * they reference, through young-generation GCs until a full GC. Built on those prototypes, the
 * pair already has them and Express's call changes nothing. Measured by `pnpm bench tricks`
 * (docs/performance.md).
 */
export function serverWithAppPrototypes(app: Express, options: http.ServerOptions = {}): http.Server {
  if (!functionConstructors) return http.createServer(options, app);
  // `prototype` must be the app's own object, so these are functions, not classes; they run
  // node's constructors on the new object as node's own subclasses do. (Reflect.construct with
  // a new target would work with classes too, but measured slower than stock Express.)
  function AppRequest(this: http.IncomingMessage, ...args: unknown[]): void {
    (http.IncomingMessage as unknown as (...a: unknown[]) => void).call(this, ...args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: http.ServerResponse, ...args: unknown[]): void {
    (http.ServerResponse as unknown as (...a: unknown[]) => void).call(this, ...args);
  }
  AppResponse.prototype = app.response;
  return http.createServer(
    {
      ...options,
      IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
    },
    app,
  );
}
