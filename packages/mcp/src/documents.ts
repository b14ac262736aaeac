import { SERVICES } from './catalog';
import type { ServiceUrls } from './invoke';

const RETRY_MS = 10_000;

/**
 * The services' OpenAPI documents as they publish them (`<url>/openapi.json`), the one source
 * of the tools; a document given in `known` (the console's own) is not fetched. A service that
 * does not answer is asked again on a later call, at most every few seconds.
 */
export function publishedDocuments(
  urls: ServiceUrls,
  known: Record<string, object> = {},
  fetchImpl: typeof fetch = fetch,
): () => Promise<Record<string, object>> {
  const documents: Record<string, object> = { ...known };
  let lastTry = 0;
  let pending: Promise<void> | undefined;
  const fetchMissing = async () => {
    await Promise.all(
      SERVICES.filter((service) => !documents[service] && urls[service]).map(async (service) => {
        try {
          const response = await fetchImpl(`${urls[service].replace(/\/+$/, '')}/openapi.json`, {
            signal: AbortSignal.timeout(5_000),
          });
          if (response.ok) documents[service] = (await response.json()) as object;
        } catch {
          // Asked again later: the tools of a service that is down are missing until it answers.
        }
      }),
    );
  };
  return async () => {
    const missing = SERVICES.some((service) => !documents[service] && urls[service]);
    if (missing && !pending && Date.now() - lastTry > RETRY_MS) {
      lastTry = Date.now();
      pending = fetchMissing().finally(() => (pending = undefined));
    }
    if (pending) await pending;
    return documents;
  };
}
