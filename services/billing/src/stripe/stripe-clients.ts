import type { Knex } from 'knex';
import Stripe from 'stripe';
import { errors } from '@platform/tenancy';
import { TtlCache } from '@platform/limits';
import type { SecretBox } from '@platform/directory';
import type { BillingConfig } from '../config';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import { deadlineFetch } from './deadline-fetch';
import { findStripeConfig } from './stripe-config.repository';

/** A project's Stripe account in one environment: the SDK client and the webhook signing secret. */
export interface StripeAccess {
  stripe: Stripe;
  webhookSecret: string | null;
}

interface Connection {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** STRIPE_API_BASE (billing's config: a local stand-in in tests, Stripe itself otherwise) as the SDK's host options. */
export function connectionOf(apiBase: string | undefined): Connection {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

const keyOf = (scope: EnvironmentTenant) => `${scope.tenantId}:${scope.projectId}:${scope.environment}`;

/**
 * One Stripe client per project and environment, built from the stored (encrypted) keys and
 * reused. A change of keys in this process drops the entry at once; other replicas see it
 * within the cache TTL.
 */
export class StripeClients {
  private readonly cache = new TtlCache<Promise<StripeAccess | null>>();
  private readonly connection: Connection;

  constructor(
    private readonly db: Knex,
    private readonly secrets: SecretBox,
    private readonly config: BillingConfig,
  ) {
    this.connection = connectionOf(config.stripeApiBase);
  }

  /** The project's Stripe access, or null when it has stored no keys for that environment. */
  find(scope: EnvironmentTenant): Promise<StripeAccess | null> {
    const key = keyOf(scope);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const loading = this.load(scope);
    this.cache.set(key, loading, this.config.stripeClientTtlMs);
    loading.catch(() => this.cache.delete(key));
    return loading;
  }

  /** The project's Stripe client; 403 PROVIDER_NOT_CONFIGURED when it has none for that environment. */
  async require(scope: EnvironmentTenant): Promise<StripeAccess> {
    const access = await this.find(scope);
    if (!access) {
      throw errors.providerNotConfigured(
        `Stripe is not configured for the ${scope.environment} environment of this project`,
      );
    }
    return access;
  }

  invalidate(scope: EnvironmentTenant): void {
    this.cache.delete(keyOf(scope));
  }

  private async load(scope: EnvironmentTenant): Promise<StripeAccess | null> {
    const row = await findStripeConfig(this.db, scope);
    if (!row) return null;
    const stripe = new Stripe(this.secrets.decrypt(row.secret_key_enc), {
      ...this.connection,
      timeout: this.config.stripeTimeoutMs,
      // An overall deadline per call, body included: the SDK's own timeouts end at the headers or when idle.
      httpClient: Stripe.createFetchHttpClient(deadlineFetch(this.config.stripeTimeoutMs)),
      maxNetworkRetries: this.config.stripeMaxNetworkRetries,
      telemetry: false,
      appInfo: { name: 'platform-billing' },
    });
    return { stripe, webhookSecret: row.webhook_secret_enc ? this.secrets.decrypt(row.webhook_secret_enc) : null };
  }
}
