/** The typing of a generated service client: one method per operation, typed from the service's `paths`. */
import type { FetchResponse, ParamsOption, RequestBodyOption } from 'openapi-fetch';
import type { RateLimitInfo } from './rate-limit';

export interface OperationEntry {
  readonly method: string;
  readonly path: string;
  readonly security: readonly (readonly string[])[];
}

export type OperationTable = Readonly<Record<string, OperationEntry>>;

export interface RetryOptions {
  /** Extra attempts after the first (0: no retry). */
  attempts?: number;
  /** First back-off delay; doubled on each attempt. */
  baseDelayMs?: number;
  /** Longest wait between attempts, Retry-After included (a longer Retry-After ends the retries). */
  maxDelayMs?: number;
}

/** What one call takes: path and query parameters, the body, and per-call extras. */
export type CallOptions<Operation> = ParamsOption<Operation> &
  RequestBodyOption<Operation> & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
    /** Overrides the client's retry for this call (retries apply to idempotent calls only). */
    retry?: RetryOptions | false;
  };

/** What every result carries besides `data` or `error`. */
export interface CallMeta {
  response: Response;
  /** The X-Request-Id the service answered with (quote it when reporting a problem). */
  requestId: string | null;
  rateLimit: RateLimitInfo;
}

/** `{ data }` on success, `{ error }` (the error envelope) on an API error; network errors throw. */
export type CallResult<Operation extends Record<string | number, unknown>> = FetchResponse<
  Operation,
  object,
  `${string}/${string}`
> &
  CallMeta;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

type Args<Operation> =
  RequiredKeys<CallOptions<Operation>> extends never
    ? [options?: CallOptions<Operation>]
    : [options: CallOptions<Operation>];

type OperationOf<Paths, Entry extends OperationEntry> = Entry['path'] extends keyof Paths
  ? Entry['method'] extends keyof Paths[Entry['path']]
    ? Paths[Entry['path']][Entry['method']] extends Record<string | number, unknown>
      ? Paths[Entry['path']][Entry['method']]
      : never
    : never
  : never;

export type ServiceClient<Paths, Operations extends OperationTable> = {
  [Name in keyof Operations]: (
    ...args: Args<OperationOf<Paths, Operations[Name]>>
  ) => Promise<CallResult<OperationOf<Paths, Operations[Name]>>>;
};
