import { httpFetch } from './http-fetch';
import type { Usage, VendorCredentials, VendorOptions } from './vendor-types';

/** The constructor options both vendor SDKs take alike: key, base URL, bounded time and retries, our fetch. */
export function sdkOptions(credentials: VendorCredentials, options: VendorOptions) {
  return {
    apiKey: credentials.apiKey,
    baseURL: options.baseUrl ?? null,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: httpFetch,
  };
}

/** Usage in the OpenAI naming; the total is the sum unless the vendor states its own. */
export function usageOf(prompt: number, completion: number, total = prompt + completion): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

/** The usage of a call that reached no vendor, or that the vendor refused. */
export const NO_USAGE: Readonly<Usage> = Object.freeze(usageOf(0, 0));
