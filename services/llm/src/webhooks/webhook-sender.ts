import http from 'node:http';
import https from 'node:https';
import { assertTargetAllowed, guardedLookup } from './ssrf-guard';

export interface WebhookResponse {
  statusCode: number;
}

/**
 * POSTs a JSON body to a customer's URL: SSRF-guarded, bounded in time, redirects not
 * followed, the answer's body read and dropped.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowedHosts: string[] },
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
        response.resume();
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0 }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
