import type { Knex } from 'knex';
import { tenantOfRow } from '@platform/db';
import { errors } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import type { MailerConfig } from '../config';
import type { Tenant } from '@platform/tenancy';
import { mailgunTransport } from '../transports/mailgun.transport';
import { outboxTransport } from '../transports/outbox.transport';
import { sendgridTransport } from '../transports/sendgrid.transport';
import { withDeadline } from '../transports/deadline';
import type { Transport } from '../transports/transport';
import { toProvider, type Provider } from './providers.mapper';
import * as repo from './providers.repository';
import {
  TYPE_ALIASES,
  type CreateProviderInput,
  type ProviderConfig,
  type UpdateProviderInput,
} from './providers.schemas';

/** Where one email goes: the transport, the provider row behind it (none for the outbox), the sender. */
export interface Route {
  providerId: string | null;
  transport: Transport;
  from: string;
}

/** What turns a provider row into a route: the master key's box, the vendors' settings, and whether this is production. */
export interface RouteSettings {
  secrets: SecretBox;
  production: boolean;
  config: Pick<MailerConfig, 'defaultFrom' | 'vendorTimeoutMs' | 'vendors'>;
}

export async function createProvider(
  db: Knex,
  secrets: SecretBox,
  tenant: Tenant,
  input: CreateProviderInput,
): Promise<Provider> {
  const type = TYPE_ALIASES[input.type];
  const row = await db.transaction(async (trx) => {
    await repo.lockProjectProviders(trx, tenant);
    // The first provider of a project becomes its default, so a send always has one.
    const isDefault = input.isDefault === true || (await repo.countProviders(trx, tenant)) === 0;
    if (isDefault) await repo.clearDefault(trx, tenant);
    return repo.insertProvider(trx, tenant, {
      name: input.name,
      type,
      isDefault,
      priority: input.priority,
      configEnc: secrets.encryptJson(input.config),
    });
  });
  return toProvider(row);
}

/** Renames, reorders or makes the default; the config is replaced only by adding a provider. */
export async function updateProvider(
  db: Knex,
  tenant: Tenant,
  id: string,
  input: UpdateProviderInput,
): Promise<Provider> {
  const row = await db.transaction(async (trx) => {
    await repo.lockProjectProviders(trx, tenant);
    if (input.isDefault && (await repo.findProvider(trx, tenant, id))) await repo.clearDefault(trx, tenant);
    return repo.updateProvider(trx, tenant, id, input);
  });
  if (!row) throw errors.notFound('Provider');
  return toProvider(row);
}

export async function listProviders(db: Knex, tenant: Tenant): Promise<{ providers: Provider[] }> {
  return { providers: (await repo.listProviders(db, tenant)).map(toProvider) };
}

function routeFor(settings: RouteSettings, row: repo.ProviderRow): Route {
  const config = settings.secrets.decryptJson<ProviderConfig>(row.config_enc);
  const { vendorTimeoutMs, vendors, defaultFrom } = settings.config;
  const options = { timeoutMs: vendorTimeoutMs };
  const vendor =
    row.type === 'mailgun'
      ? mailgunTransport(
          { apiKey: config.apiKey, domain: config.domain!, region: config.region },
          { ...options, baseUrl: vendors.mailgunApiBase },
        )
      : sendgridTransport({ apiKey: config.apiKey }, { ...options, baseUrl: vendors.sendgridApiBase });
  const transport = withDeadline(vendor, vendorTimeoutMs);
  const from = config.fromEmail ?? (config.domain ? `no-reply@${config.domain}` : defaultFrom);
  return { providerId: row.id, transport, from };
}

/** The route of a named provider (provider test). */
export async function providerRoute(db: Knex, settings: RouteSettings, tenant: Tenant, id: string): Promise<Route> {
  const row = await repo.findProvider(db, tenant, id);
  if (!row) throw errors.notFound('Provider');
  return routeFor(settings, row);
}

/**
 * The project's providers in failover order (priority, then the default, then the oldest).
 * Without any: outside production the built-in outbox, in production 403 PROVIDER_NOT_CONFIGURED.
 */
export async function sendingRoutes(db: Knex, settings: RouteSettings, tenant: Tenant): Promise<Route[]> {
  const rows = await repo.listSendingProviders(db, tenant);
  if (rows.length) return rows.map((row) => routeFor(settings, row));
  if (settings.production) {
    throw errors.providerNotConfigured('No email provider is configured for this project');
  }
  return [{ providerId: null, transport: outboxTransport, from: settings.config.defaultFrom }];
}

/** A provider named by a webhook's path, with its owner and decrypted config (for the signature check). */
export async function providerForWebhook(
  db: Knex,
  secrets: SecretBox,
  id: string,
): Promise<{ id: string; type: repo.ProviderType; tenant: Tenant; config: ProviderConfig } | undefined> {
  const row = await repo.findProviderForWebhook(db, id);
  if (!row) return undefined;
  return {
    id: row.id,
    type: row.type,
    tenant: tenantOfRow(row),
    config: secrets.decryptJson<ProviderConfig>(row.config_enc),
  };
}
