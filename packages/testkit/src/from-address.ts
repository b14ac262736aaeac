import http from 'node:http';

export interface FromAddressRequest {
  port: number;
  /** The client's own address, e.g. 127.0.0.2 (a dual-stack listener sees `::ffff:127.0.0.2`). */
  localAddress: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FromAddressResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** One request from a chosen loopback address, on a connection of its own; resolves with the parsed reply. */
export function requestFrom(options: FromAddressRequest): Promise<FromAddressResponse> {
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: options.port,
        localAddress: options.localAddress,
        method: options.method ?? 'GET',
        path: options.path,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: the text as it came
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
