import type { Knex } from 'knex';
import { errors, toIso, type PlatformConfig, type SecretBox } from '@platform/tenancy';
import type { MailerConfig } from '../config';
import type { Tenant } from '../shared';
import { mailgunTransport } from '../transports/mailgun.transport';
import { outboxTransport } from '../transports/outbox.transport';
import { sendgridTransport } from '../transports/sendgrid.transport';
import { withDeadline } from '../transports/deadline';
import type { Transport } from '../transports/transport';
import * as repo from './providers.repository';
import { TYPE_ALIASES, type CreateProviderInput, type ProviderConfig } from './providers.schemas';

export interface Provider {
  id: string;
  name: string;
  type: repo.ProviderType;
  isDefault: boolean;
  priority: number;
  createdAt: string;
}

/** Where one email goes: the transport, the provider row behind it (none for the outbox), the sender. */
export interface Route {
  providerId: string | null;
  transport: Transport;
  from: string;
}

/** The one place a provider row becomes its API shape: the config never leaves. */
function toProvider(row: repo.ProviderRow): Provider {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    isDefault: row.isDefault,
    priority: row.priority,
    createdAt: toIso(row.createdAt)!,
  };
}

export class ProvidersService {
  constructor(
    private readonly db: Knex,
    private readonly secrets: SecretBox,
    private readonly platform: PlatformConfig,
    private readonly mailer: MailerConfig,
  ) {}

  async create(tenant: Tenant, input: CreateProviderInput): Promise<Provider> {
    const type = TYPE_ALIASES[input.type];
    const row = await this.db.transaction(async (trx) => {
      await repo.lockProjectProviders(trx, tenant);
      // The first provider of a project becomes its default, so a send always has one.
      const isDefault = input.isDefault === true || (await repo.countProviders(trx, tenant)) === 0;
      if (isDefault) await repo.clearDefault(trx, tenant);
      return repo.insertProvider(trx, tenant, {
        name: input.name,
        type,
        isDefault,
        priority: input.priority,
        configEnc: this.secrets.encryptJson(input.config),
      });
    });
    return toProvider(row);
  }

  async list(tenant: Tenant): Promise<{ providers: Provider[] }> {
    return { providers: (await repo.listProviders(this.db, tenant)).map(toProvider) };
  }

  /** The route of a named provider (provider test). */
  async routeOf(tenant: Tenant, id: string): Promise<Route> {
    const row = await repo.findProvider(this.db, tenant, id);
    if (!row) throw errors.notFound('Provider');
    return this.routeFor(row);
  }

  /**
   * The project's providers in failover order (priority, then the default, then the oldest).
   * Without any: outside production the built-in outbox, in production 403 PROVIDER_NOT_CONFIGURED.
   */
  async sendingRoutes(db: Knex, tenant: Tenant): Promise<Route[]> {
    const rows = await repo.listSendingProviders(db, tenant);
    if (rows.length) return rows.map((row) => this.routeFor(row));
    if (this.platform.production) {
      throw errors.providerNotConfigured('No email provider is configured for this project');
    }
    return [{ providerId: null, transport: outboxTransport, from: this.mailer.defaultFrom }];
  }

  /** A provider's decrypted config, for webhook signature checks. */
  configOf(row: repo.ProviderRow): ProviderConfig {
    return this.secrets.decryptJson<ProviderConfig>(row.configEnc);
  }

  private routeFor(row: repo.ProviderRow): Route {
    const config = this.configOf(row);
    const options = { timeoutMs: this.mailer.vendorTimeoutMs };
    const vendor =
      row.type === 'mailgun'
        ? mailgunTransport(
            { apiKey: config.apiKey, domain: config.domain!, region: config.region },
            { ...options, baseUrl: this.mailer.vendors.mailgunApiBase },
          )
        : sendgridTransport({ apiKey: config.apiKey }, { ...options, baseUrl: this.mailer.vendors.sendgridApiBase });
    const transport = withDeadline(vendor, this.mailer.vendorTimeoutMs);
    const from = config.fromEmail ?? (config.domain ? `no-reply@${config.domain}` : this.mailer.defaultFrom);
    return { providerId: row.id, transport, from };
  }
}
