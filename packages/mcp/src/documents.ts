import { SERVICES } from './catalog';
import type { ServiceUrls } from './invoke';

const RETRY_MS = 10_000;
const REFRESH_MS = 5 * 60_000;

/**
 * The services' OpenAPI documents as they publish them (`<url>/openapi.json`), the one source
 * of the tools; a document given in `known` (the console's own) is not fetched. A service that
 * does not answer is asked again a few seconds later, and every document is read again every few
 * minutes (a redeployed service's new operations become tools). The object returned changes
 * only when a document did, so callers may cache what they build from it.
 */
export function publishedDocuments(
  urls: ServiceUrls,
  known: Record<string, object> = {},
  fetchImpl: typeof fetch = fetch,
): () => Promise<Record<string, object>> {
  let documents: Record<string, object> = { ...known };
  const texts: Record<string, string> = {};
  const fetchedAt: Record<string, number> = {};
  let lastTry = 0;
  let pending: Promise<void> | undefined;
  const remote = SERVICES.filter((service) => !known[service] && urls[service]);
  const due = () =>
    remote.some((service) =>
      documents[service] ? Date.now() - fetchedAt[service] > REFRESH_MS : Date.now() - lastTry > RETRY_MS,
    );
  const fetchDue = async () => {
    lastTry = Date.now();
    const fetched: Record<string, object> = {};
    await Promise.all(
      remote.map(async (service) => {
        if (documents[service] && Date.now() - fetchedAt[service] <= REFRESH_MS) return;
        try {
          const response = await fetchImpl(`${urls[service].replace(/\/+$/, '')}/openapi.json`, {
            signal: AbortSignal.timeout(5_000),
          });
          if (!response.ok) return;
          const text = await response.text();
          fetchedAt[service] = Date.now();
          if (texts[service] === text) return;
          texts[service] = text;
          fetched[service] = JSON.parse(text) as object;
        } catch {
          // Kept as it was (or missing): asked again later.
        }
      }),
    );
    if (Object.keys(fetched).length > 0) documents = { ...documents, ...fetched };
  };
  return async () => {
    if (!pending && due()) pending = fetchDue().finally(() => (pending = undefined));
    // Only a first read waits; a refresh runs while the documents in hand are used.
    if (pending && remote.some((service) => !documents[service])) await pending;
    return documents;
  };
}
