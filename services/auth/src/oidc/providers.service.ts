import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { AppError, errors, toIso } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import { recordEvents } from '../audit/audit.service';
import type { ClientInfo } from '../shared/client';
import { OIDC_PRESETS } from './presets';
import * as repo from './providers.repository';
import type { OidcProviderRow } from './providers.repository';
import type { ProviderChanges, ProviderInput } from './providers.schemas';

export const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/** `openid` is what makes it OpenID Connect: always asked for, never twice. */
const withOpenid = (scopes: string[]) => ['openid', ...scopes.filter((s) => s !== 'openid')];

export function toProvider(row: OidcProviderRow, callbackUrl: string) {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    hasClientSecret: row.client_secret_sealed !== null,
    scopes: row.scopes,
    acceptUnverifiedEmails: row.accept_unverified_emails,
    redirectUri: callbackUrl,
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
  };
}

export interface ProviderDeps {
  db: Knex;
  secrets: SecretBox;
  callbackUrl: string;
}

const changed = (db: Knex, tenant: Tenant, client: ClientInfo, name: string, action: string) =>
  recordEvents(db, tenant, { type: 'oidc_provider_changed', userId: null, client, data: { provider: name, action } });

export async function createProvider(deps: ProviderDeps, tenant: Tenant, input: ProviderInput, client: ClientInfo) {
  const issuer = input.issuer ?? OIDC_PRESETS[input.preset!];
  const row = await repo.insertProvider(deps.db, tenant, {
    name: input.name,
    issuer,
    client_id: input.clientId,
    client_secret_sealed: input.clientSecret ? deps.secrets.encrypt(input.clientSecret) : null,
    scopes: withOpenid(input.scopes ?? DEFAULT_SCOPES),
    accept_unverified_emails: input.acceptUnverifiedEmails ?? false,
  });
  if (!row) throw new AppError('CONFLICT', `The project already has a provider named ${input.name}`);
  await changed(deps.db, tenant, client, row.name, 'created');
  return { success: true as const, provider: toProvider(row, deps.callbackUrl) };
}

export async function listProjectProviders(deps: ProviderDeps, tenant: Tenant) {
  const rows = await repo.listProviders(deps.db, tenant);
  return { success: true as const, providers: rows.map((row) => toProvider(row, deps.callbackUrl)) };
}

export async function getProvider(deps: ProviderDeps, tenant: Tenant, name: string) {
  const row = await repo.findProvider(deps.db, tenant, name);
  if (!row) throw errors.notFound('Provider');
  return { success: true as const, provider: toProvider(row, deps.callbackUrl) };
}

export async function changeProvider(
  deps: ProviderDeps,
  tenant: Tenant,
  name: string,
  input: ProviderChanges,
  client: ClientInfo,
) {
  const changes: Partial<repo.NewProvider> = {};
  if (input.issuer !== undefined) changes.issuer = input.issuer;
  if (input.clientId !== undefined) changes.client_id = input.clientId;
  if (input.clientSecret !== undefined)
    changes.client_secret_sealed = input.clientSecret ? deps.secrets.encrypt(input.clientSecret) : null;
  if (input.scopes !== undefined) changes.scopes = withOpenid(input.scopes);
  if (input.acceptUnverifiedEmails !== undefined) changes.accept_unverified_emails = input.acceptUnverifiedEmails;
  const row = await repo.updateProvider(deps.db, tenant, name, changes);
  if (!row) throw errors.notFound('Provider');
  await changed(deps.db, tenant, client, name, 'updated');
  return { success: true as const, provider: toProvider(row, deps.callbackUrl) };
}

export async function removeProvider(deps: ProviderDeps, tenant: Tenant, name: string, client: ClientInfo) {
  if (!(await repo.deleteProvider(deps.db, tenant, name))) throw errors.notFound('Provider');
  await changed(deps.db, tenant, client, name, 'deleted');
}
