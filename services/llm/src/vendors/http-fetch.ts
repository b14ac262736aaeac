import http from 'node:http';
import https from 'node:https';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 30_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 30_000 }),
};

function headersOf(init: RequestInit): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/**
 * The `fetch` handed to the vendor SDKs: node:http with keep-alive agents shared by every
 * project's client. Vendor answers are small JSON documents, read whole; it costs about half
 * of the built-in fetch per call, which is most of what the gateway adds to a completion.
 */
export const httpFetch = ((input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const transport = url.protocol === 'https:' ? https : http;
  const agent = agents[url.protocol as 'http:' | 'https:'];
  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(
      url,
      { method: init.method ?? 'GET', headers: headersOf(init), agent, signal: init.signal ?? undefined },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const headers = new Headers();
          for (const [key, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) for (const v of value) headers.append(key, v);
            else if (value !== undefined) headers.set(key, value);
          }
          const status = response.statusCode ?? 500;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: response.statusMessage, headers }));
        });
      },
    );
    request.on('error', reject);
    const body = init.body;
    if (body === undefined || body === null) request.end();
    else if (typeof body === 'string' || body instanceof Uint8Array) request.end(body);
    else reject(new TypeError('httpFetch sends string or byte bodies only'));
  });
}) as typeof fetch;
