import http from 'node:http';
import https from 'node:https';
import { assertTargetAllowed, guardedLookup } from './ssrf-guard';

export interface WebhookResponse {
  statusCode: number;
  /** True when the receiver's answer passed `maxResponseBytes` and was cut off there. */
  truncated: boolean;
}

export interface PostWebhookOptions {
  /** Longest silence on the socket. */
  timeoutMs: number;
  /** Longest the whole attempt may take (DNS, connect, send, answer), however steadily bytes trickle. */
  deadlineMs: number;
  /** The answer's body is read and dropped up to here; beyond it the connection is closed. */
  maxResponseBytes: number;
  allowedHosts: string[];
}

export class WebhookDeadlineError extends Error {
  override readonly name = 'WebhookDeadlineError';
}

/**
 * POSTs a JSON body to a customer's URL: SSRF-guarded, bounded in time (idle and overall) and
 * in what it reads back, redirects not followed. The status alone decides the outcome, so an
 * oversized answer is cut off rather than waited for.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: PostWebhookOptions,
): Promise<WebhookResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    let allowed: boolean;
    try {
      url = new URL(target);
      allowed = assertTargetAllowed(url, options.allowedHosts);
    } catch (error) {
      reject(error as Error);
      return;
    }
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
        lookup: guardedLookup(allowed) as unknown as http.RequestOptions['lookup'],
        timeout: options.timeoutMs,
        agent: false,
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxResponseBytes) {
            clearTimeout(deadline);
            resolve({ statusCode, truncated: true });
            request.destroy();
          }
        });
        response.on('end', () => {
          clearTimeout(deadline);
          resolve({ statusCode, truncated: false });
        });
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new WebhookDeadlineError(`no complete answer within ${options.deadlineMs} ms`)),
      options.deadlineMs,
    );
    deadline.unref();
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
