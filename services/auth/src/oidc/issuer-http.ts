import http from 'node:http';
import https from 'node:https';
import { assertTargetAllowed, guardedLookup } from '@platform/webhooks';

/** What bounds one call to a tenant's issuer: the whole call's time, the answer's size, the hosts allowed to be private. */
export interface IssuerCallLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  allowedHosts: string[];
}

export interface IssuerResponse {
  status: number;
  body: unknown;
}

/** An issuer that could not be reached, refused, answered too slowly, too much or not in JSON. */
export class IssuerCallError extends Error {
  override readonly name = 'IssuerCallError';
}

/**
 * One call to a URL a project configured (discovery, JWKS, token, userinfo): through the SSRF
 * guard (private addresses refused unless allow-listed, the connection made to the address
 * checked), within one deadline for the whole exchange, redirects not followed, the answer
 * read up to `maxResponseBytes` and parsed as JSON.
 */
export function callIssuer(
  target: string,
  request: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  limits: IssuerCallLimits,
): Promise<IssuerResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    let allowed: boolean;
    try {
      url = new URL(target);
      allowed = assertTargetAllowed(url, limits.allowedHosts);
    } catch (error) {
      reject(new IssuerCallError((error as Error).message));
      return;
    }
    const fail = (message: string) => reject(new IssuerCallError(message));
    const transport = url.protocol === 'https:' ? https : http;
    const outgoing = transport.request(
      url,
      {
        method: request.method,
        headers: {
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(request.body)) }),
          ...request.headers,
        },
        lookup: guardedLookup(allowed) as unknown as http.RequestOptions['lookup'],
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > limits.maxResponseBytes) {
            outgoing.destroy();
            fail(`answer larger than ${limits.maxResponseBytes} bytes`);
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(deadline);
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null });
          } catch {
            fail(`answer of ${response.statusCode} is not JSON`);
          }
        });
        response.on('error', (error) => fail(error.message));
      },
    );
    const deadline = setTimeout(() => {
      outgoing.destroy();
      fail(`no complete answer within ${limits.timeoutMs} ms`);
    }, limits.timeoutMs);
    deadline.unref();
    outgoing.on('error', (error) => {
      clearTimeout(deadline);
      fail(error.message);
    });
    outgoing.end(request.body);
  });
}
