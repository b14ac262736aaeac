import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 30_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 30_000 }),
};

/** Request headers as node:http takes them. The SDKs pass a `Headers`, read as it is (a copy would sort it twice). */
function headersOf(init: RequestInit): Record<string, string> {
  const out: Record<string, string> = {};
  const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** Response headers as the SDKs read them (`get`, `has`, iteration); names are lowercase already. */
class ResponseHeaders {
  private readonly values = new Map<string, string>();

  constructor(raw: http.IncomingHttpHeaders) {
    for (const [key, value] of Object.entries(raw)) {
      if (value !== undefined) this.values.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }

  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }

  keys(): IterableIterator<string> {
    return this.values.keys();
  }

  forEach(callback: (value: string, key: string) => void): void {
    this.values.forEach((value, key) => callback(value, key));
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.values.entries();
  }
}

/**
 * The part of `Response` the SDKs use for a non-streaming call, over a body already read whole.
 * A real `Response` would wrap the bytes in a web stream only to read them back at once.
 */
class BufferedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ResponseHeaders;
  readonly body = null;
  readonly bodyUsed = false;
  readonly redirected = false;
  readonly type = 'basic';

  constructor(
    readonly url: string,
    message: http.IncomingMessage,
    private readonly buffer: Buffer,
  ) {
    this.status = message.statusCode ?? 500;
    this.statusText = message.statusMessage ?? '';
    this.headers = new ResponseHeaders(message.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  text(): Promise<string> {
    return Promise.resolve(this.buffer.toString('utf8'));
  }

  json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(this.buffer.toString('utf8')) as unknown);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(new Uint8Array(this.buffer).buffer);
  }
}

/**
 * The `fetch` handed to the vendor SDKs: node:http with keep-alive agents shared by every
 * project's client. Vendor answers are small JSON documents, read whole; it costs well under half
 * of the built-in fetch per call, which is most of what the gateway adds to a completion. An
 * event stream is handed on as it arrives, as a real `Response` over the socket.
 */
export const httpFetch = ((input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const transport = url.protocol === 'https:' ? https : http;
  const agent = agents[url.protocol as 'http:' | 'https:'];
  const body = init.body ?? undefined;
  // Checked before a request exists: an unsent request would hold a pooled socket until it times out.
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    return Promise.reject(new TypeError('httpFetch sends string or byte bodies only'));
  }
  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(
      url,
      { method: init.method ?? 'GET', headers: headersOf(init), agent, signal: init.signal ?? undefined },
      (response) => {
        if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve(streamingResponse(response));
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          resolve(new BufferedResponse(url.href, response, Buffer.concat(chunks)) as unknown as Response);
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}) as typeof fetch;

function streamingResponse(response: http.IncomingMessage): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, {
    status: response.statusCode ?? 500,
    statusText: response.statusMessage ?? '',
    headers,
  });
}
