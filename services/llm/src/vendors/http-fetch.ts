import http from 'node:http';
import https from 'node:https';

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

/** The part of `Response` the SDKs use: status, headers and the body's readers. */
abstract class VendorResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ResponseHeaders;
  readonly bodyUsed = false;
  readonly redirected = false;
  readonly type = 'basic';

  constructor(
    readonly url: string,
    message: http.IncomingMessage,
  ) {
    this.status = message.statusCode ?? 500;
    this.statusText = message.statusMessage ?? '';
    this.headers = new ResponseHeaders(message.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  protected abstract bytes(): Promise<Buffer>;

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(await this.bytes()).buffer;
  }
}

/**
 * A non-streaming answer, read whole. A real `Response` would wrap the bytes in a web stream
 * only to read them back at once.
 */
class BufferedResponse extends VendorResponse {
  readonly body = null;

  constructor(
    url: string,
    message: http.IncomingMessage,
    private readonly buffer: Buffer,
  ) {
    super(url, message);
  }

  protected bytes(): Promise<Buffer> {
    return Promise.resolve(this.buffer);
  }
}

/**
 * An event stream, its body the socket's own readable: the SDKs and our event reader iterate it
 * as it arrives (both take any async iterable), with no web stream in between.
 */
class StreamedResponse extends VendorResponse {
  constructor(
    url: string,
    readonly body: http.IncomingMessage,
  ) {
    super(url, body);
  }

  protected async bytes(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}

/**
 * The `fetch` handed to the vendor SDKs: node:http with keep-alive agents shared by every
 * project's client. Vendor answers are small JSON documents, read whole; it costs well under half
 * of the built-in fetch per call, which is most of what the gateway adds to a completion. An
 * event stream is handed on as it arrives.
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
          resolve(new StreamedResponse(url.href, response) as unknown as Response);
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
