import { anthropicClient } from './anthropic-vendor';
import { openAiClient } from './openai-vendor';
import type { ProviderType, VendorClient, VendorCredentials, VendorOptions } from './vendor-types';

/** Builds an SDK client for a vendor (tests and the cache share this). */
export function buildVendorClient(
  provider: ProviderType,
  credentials: VendorCredentials,
  options: VendorOptions,
): VendorClient {
  return provider === 'openai' ? openAiClient(credentials, options) : anthropicClient(credentials, options);
}

interface CachedClient {
  client: VendorClient;
  expiresAt: number;
}

/**
 * One SDK client per project and vendor, reused across requests (keeps its HTTP connections
 * warm). An upsert in this process invalidates at once; other replicas see it after the TTL.
 * Requests that find no client share one load, so a burst costs one query, not one each.
 */
export class VendorClientCache {
  private readonly clients = new Map<string, CachedClient>();
  private readonly loading = new Map<string, Promise<VendorClient | null>>();

  constructor(private readonly ttlMs: number) {}

  async get(
    projectId: string,
    provider: ProviderType,
    load: () => Promise<VendorClient | null>,
  ): Promise<VendorClient | null> {
    const key = `${projectId}:${provider}`;
    const cached = this.clients.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.client;
    let loading = this.loading.get(key);
    if (!loading) {
      loading = load()
        .then((client) => {
          if (this.loading.get(key) !== loading) return client; // invalidated meanwhile: not cached
          if (client) this.clients.set(key, { client, expiresAt: Date.now() + this.ttlMs });
          else this.clients.delete(key);
          return client;
        })
        .finally(() => {
          if (this.loading.get(key) === loading) this.loading.delete(key);
        });
      this.loading.set(key, loading);
    }
    return loading;
  }

  invalidate(projectId: string, provider: ProviderType): void {
    this.clients.delete(`${projectId}:${provider}`);
    this.loading.delete(`${projectId}:${provider}`);
  }
}
