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
 */
export class VendorClientCache {
  private readonly clients = new Map<string, CachedClient>();

  constructor(private readonly ttlMs: number) {}

  async get(
    projectId: string,
    provider: ProviderType,
    load: () => Promise<VendorClient | null>,
  ): Promise<VendorClient | null> {
    const key = `${projectId}:${provider}`;
    const cached = this.clients.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.client;
    const client = await load();
    if (client) this.clients.set(key, { client, expiresAt: Date.now() + this.ttlMs });
    else this.clients.delete(key);
    return client;
  }

  invalidate(projectId: string, provider: ProviderType): void {
    this.clients.delete(`${projectId}:${provider}`);
  }
}
