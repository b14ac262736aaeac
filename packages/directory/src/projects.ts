import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  AppError,
  isWebOrigin,
  ownEntry,
  parseWebUrl,
  randomToken,
  SEARCH_LANGUAGES,
  sha256Hex,
  type ProjectSettings,
} from '@platform/tenancy';
import type { SecretBox } from './secret-box';

export interface CreatedProject {
  tenantId: string;
  projectId: string;
  apiKey: string;
  secretKey: string;
  webhookSecret: string;
}

export interface KeyPair {
  apiKey: string;
  secretKey: string;
}

async function issueKey(trx: Knex, projectId: string): Promise<KeyPair> {
  const pair = { apiKey: randomToken('pk_', 24), secretKey: randomToken('sk_', 32) };
  await trx('api_keys').insert({
    id: randomUUID(),
    project_id: projectId,
    public_key: pair.apiKey,
    secret_hash: sha256Hex(pair.secretKey),
  });
  return pair;
}

/** Creates the tenant when new, then a project in it with its first key pair (shown once). */
export async function createProject(
  db: Knex,
  secrets: SecretBox,
  input: { tenant: string; project: string; settings?: ProjectSettings },
): Promise<CreatedProject> {
  return db.transaction(async (trx) => {
    await trx('tenants').insert({ id: randomUUID(), name: input.tenant }).onConflict('name').ignore();
    const tenant = await trx('tenants').where({ name: input.tenant }).first('id');
    const existing = await trx('projects').where({ tenant_id: tenant.id, name: input.project }).first('id');
    if (existing)
      throw new AppError('CONFLICT', `Project "${input.project}" already exists in tenant "${input.tenant}"`);
    const projectId = randomUUID();
    // Standard Webhooks' form (`whsec_` + standard base64), which its libraries read as given; the
    // Stripe-style signature keys on the same text (packages/webhooks explains secrets made before).
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    await trx('projects').insert({
      id: projectId,
      tenant_id: tenant.id,
      name: input.project,
      settings: JSON.stringify(input.settings ?? {}),
      webhook_secret_enc: secrets.encrypt(webhookSecret),
    });
    const keys = await issueKey(trx, projectId);
    return { tenantId: tenant.id, projectId, ...keys, webhookSecret };
  });
}

export async function listProjects(db: Knex) {
  const rows = await db('projects as p')
    .join('tenants as t', 't.id', 'p.tenant_id')
    .orderBy([{ column: 't.name' }, { column: 'p.name' }])
    .select('t.id as tenant_id', 't.name as tenant_name', 'p.id as project_id', 'p.name as project_name', 'p.settings');
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    tenantName: r.tenant_name,
    projectId: r.project_id,
    projectName: r.project_name,
    settings: r.settings,
  }));
}

async function requireProject(db: Knex, projectId: string) {
  const project = /^[0-9a-f-]{36}$/i.test(projectId)
    ? await db('projects').where({ id: projectId }).first('id', 'settings')
    : null;
  if (!project) throw new AppError('NOT_FOUND', `Project ${projectId} not found`);
  return project;
}

/** A new key pair; the old pairs keep working until revoked. */
export async function rotateKeys(db: Knex, projectId: string): Promise<KeyPair> {
  await requireProject(db, projectId);
  return issueKey(db, projectId);
}

/** Services stop accepting the key within their cache TTL (at most 60 s). */
export async function revokeKey(db: Knex, apiKey: string): Promise<{ revoked: true }> {
  const changed = await db('api_keys')
    .where({ public_key: apiKey })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  if (!changed) throw new AppError('NOT_FOUND', 'No active key with that public key');
  return { revoked: true };
}

/**
 * Every project setting a service reads, and what it may hold. URLs are parsed by the WHATWG
 * parser that later builds the e-mail links; an origin is compared with the browser's `Origin`
 * header as it is, so it must already be in that form (no path, no trailing slash).
 */
const SETTING_CHECKS: Record<string, (value: unknown) => boolean> = {
  requireEmailVerification: (v) => typeof v === 'boolean',
  appUrl: (v) => typeof v === 'string' && parseWebUrl(v) !== undefined,
  allowedOrigins: (v) => Array.isArray(v) && v.every((o) => typeof o === 'string' && isWebOrigin(o)),
  searchLanguage: (v) => typeof v === 'string' && (SEARCH_LANGUAGES as readonly string[]).includes(v),
  requireMfa: (v) => typeof v === 'boolean',
  /** LLM: put prompts and completions on the project's GenAI trace spans (off: never; docs/observability.md). */
  traceLlmContent: (v) => typeof v === 'boolean',
  allowedRedirectUrls: (v) =>
    Array.isArray(v) && v.length <= 50 && v.every((u) => typeof u === 'string' && parseWebUrl(u) !== undefined),
  anonymousSignIn: (v) => typeof v === 'boolean',
  emailSignUp: (v) => typeof v === 'boolean',
};

/** The settings a project has; the command line and the console set them alike. */
export const SETTING_NAMES: readonly string[] = Object.keys(SETTING_CHECKS);

/** The one validation of a setting, shared by the command line and the console. */
export function validateSetting(key: string, value: unknown): void {
  const check = ownEntry(SETTING_CHECKS, key);
  if (!check)
    throw new AppError('VALIDATION_ERROR', `Unknown setting "${key}"; known: ${SETTING_NAMES.join(', ')}`, {
      details: [{ path: key, message: 'unknown setting' }],
    });
  if (!check(value))
    throw new AppError('VALIDATION_ERROR', `Invalid value for ${key}`, {
      details: [{ path: key, message: 'invalid value' }],
    });
}

export async function setSetting(
  db: Knex,
  projectId: string,
  key: string,
  value: unknown,
): Promise<{ settings: ProjectSettings }> {
  return setSettings(db, projectId, { [key]: value });
}

/** Validates every change first, then merges them into the project's settings in one write. */
export async function setSettings(
  db: Knex,
  projectId: string,
  changes: Record<string, unknown>,
): Promise<{ settings: ProjectSettings }> {
  for (const [key, value] of Object.entries(changes)) validateSetting(key, value);
  const project = await requireProject(db, projectId);
  const settings = { ...(project.settings ?? {}), ...changes };
  await db('projects')
    .where({ id: projectId })
    .update({ settings: JSON.stringify(settings) });
  return { settings };
}
