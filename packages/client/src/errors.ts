/** A call that got no HTTP answer (refused, reset, DNS, aborted): distinct from an API error, which is returned. */
export class NetworkError extends Error {
  constructor(
    readonly service: string,
    readonly method: string,
    readonly path: string,
    cause: unknown,
  ) {
    super(`${service}: ${method.toUpperCase()} ${path} got no response (${(cause as Error)?.message ?? cause})`, {
      cause,
    });
    this.name = 'NetworkError';
  }
}
