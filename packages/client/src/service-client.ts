/** Builds one service's client at run time from its generated operation table. */
import createFetchClient from 'openapi-fetch';
import { NetworkError } from './errors';
import { readRateLimit } from './rate-limit';
import type { SessionManager } from './session';
import type { CallMeta, OperationEntry, OperationTable, RetryOptions } from './types';

export interface ProjectKeys {
  apiKey: string;
  secretKey: string;
  tenantId: string;
  projectId: string;
}

export interface ServiceClientOptions {
  service: string;
  baseUrl: string;
  keys?: ProjectKeys;
  sessions?: SessionManager;
  retry?: RetryOptions;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
}

interface RawCall {
  params?: unknown;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  retry?: RetryOptions | false;
}

type RawResult = { data?: unknown; error?: unknown; response: Response } & Partial<CallMeta>;

const IDEMPOTENT = new Set(['get', 'head', 'put', 'delete', 'options']);
const RETRIED_STATUS = new Set([429, 502, 503, 504]);

export const keyHeaders = (keys: ProjectKeys): Record<string, string> => ({
  'x-api-key': keys.apiKey,
  'x-secret-key': keys.secretKey,
  'x-tenant-id': keys.tenantId,
  'x-project-id': keys.projectId,
});

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

function hasIdempotencyKey(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'idempotency-key');
}

/** One method per operation; each returns `{ data | error, response, requestId, rateLimit }`. */
export function createServiceClient(options: ServiceClientOptions, operations: OperationTable) {
  const client = createFetchClient({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: (request: Request) => options.fetch!(request) } : {}),
  });

  async function send(entry: OperationEntry, call: RawCall, bearer: string | undefined): Promise<RawResult> {
    const wantsKeys = entry.security.some((requirement) => requirement.includes('apiKey'));
    const headers: Record<string, string> = {
      ...options.headers,
      ...(wantsKeys && options.keys ? keyHeaders(options.keys) : {}),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...call.headers,
    };
    try {
      // The operation table comes from the same document as the types the caller was checked against.
      const request = client.request as unknown as (m: string, p: string, i: object) => Promise<RawResult>;
      return await request(entry.method, entry.path, {
        params: call.params,
        body: call.body,
        headers,
        signal: call.signal,
      });
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw new NetworkError(options.service, entry.method, entry.path, error);
    }
  }

  /** The call with its bearer: refreshed once and sent again when the service refuses the access token. */
  async function authenticated(entry: OperationEntry, call: RawCall): Promise<RawResult> {
    const wantsBearer = entry.security.some((requirement) => requirement.includes('bearer'));
    const session = wantsBearer && options.sessions ? await options.sessions.current() : null;
    const result = await send(entry, call, session?.accessToken);
    if (result.response.status !== 401 || !session || !options.sessions) return result;
    const renewed = await options.sessions.renew(session.accessToken);
    if (!renewed || renewed.accessToken === session.accessToken) return result;
    return send(entry, call, renewed.accessToken);
  }

  async function invoke(entry: OperationEntry, call: RawCall = {}): Promise<RawResult> {
    const retry = call.retry === false ? undefined : (call.retry ?? options.retry);
    const retriable = IDEMPOTENT.has(entry.method) || hasIdempotencyKey(call.headers);
    const attempts = retriable ? Math.max(0, retry?.attempts ?? 0) : 0;
    const baseDelay = retry?.baseDelayMs ?? 200;
    const maxDelay = retry?.maxDelayMs ?? 10_000;
    for (let attempt = 0; ; attempt++) {
      let result: RawResult | undefined;
      try {
        result = await authenticated(entry, call);
      } catch (error) {
        if (!(error instanceof NetworkError) || attempt >= attempts) throw error;
      }
      let delay = baseDelay * 2 ** attempt;
      if (result) {
        const rateLimit = readRateLimit(result.response.headers);
        result.requestId = result.response.headers.get('x-request-id');
        result.rateLimit = rateLimit;
        if (!RETRIED_STATUS.has(result.response.status) || attempt >= attempts) return result;
        if (rateLimit.retryAfterSeconds !== undefined) delay = rateLimit.retryAfterSeconds * 1000;
        if (delay > maxDelay) return result;
      }
      await sleep(Math.min(delay, maxDelay), call.signal);
    }
  }

  return Object.fromEntries(
    Object.entries(operations).map(([name, entry]) => [name, (call?: RawCall) => invoke(entry, call)]),
  );
}
