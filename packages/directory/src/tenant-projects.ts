import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError, isUuid, randomToken, sha256Hex, type ProjectSettings } from '@platform/tenancy';
import type { SecretBox } from './secret-box';

/** A project of a tenant as the control plane shows it. */
export interface TenantProjectRecord {
  id: string;
  tenantId: string;
  name: string;
  settings: ProjectSettings;
  createdAt: Date;
  deletedAt: Date | null;
}

/** A key pair's metadata: never its secret. */
export interface KeyRecord {
  id: string;
  projectId: string;
  name: string;
  publicKey: string;
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** A key pair just made: the one moment its secret exists outside a hash. */
export interface IssuedKey extends KeyRecord {
  secretKey: string;
}

interface ProjectRow {
  id: string;
  tenant_id: string;
  name: string;
  settings: ProjectSettings | null;
  created_at: Date;
  deleted_at: Date | null;
}

interface KeyRow {
  id: string;
  project_id: string;
  name: string;
  public_key: string;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const PROJECT_COLUMNS = ['id', 'tenant_id', 'name', 'settings', 'created_at', 'deleted_at'] as const;
const KEY_COLUMNS = [
  'id',
  'project_id',
  'name',
  'public_key',
  'created_by',
  'created_at',
  'last_used_at',
  'expires_at',
  'revoked_at',
] as const;

const toProject = (row: ProjectRow): TenantProjectRecord => ({
  id: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  settings: row.settings ?? {},
  createdAt: row.created_at,
  deletedAt: row.deleted_at,
});

const toKey = (row: KeyRow): KeyRecord => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  publicKey: row.public_key,
  createdBy: row.created_by,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
});

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

async function insertKey(
  db: Knex,
  projectId: string,
  input: { name: string; createdBy: string | null },
): Promise<IssuedKey> {
  const secretKey = randomToken('sk_', 32);
  const [row] = await db('api_keys')
    .insert({
      id: randomUUID(),
      project_id: projectId,
      name: input.name,
      public_key: randomToken('pk_', 24),
      secret_hash: sha256Hex(secretKey),
      created_by: input.createdBy,
    })
    .returning<KeyRow[]>([...KEY_COLUMNS]);
  return { ...toKey(row), secretKey };
}

/** A new project of an existing tenant with its first key pair, named `default`. */
export async function createTenantProject(
  db: Knex,
  secrets: SecretBox,
  tenantId: string,
  input: { name: string; createdBy: string | null },
): Promise<{ project: TenantProjectRecord; key: IssuedKey }> {
  return db.transaction(async (trx) => {
    let row: ProjectRow;
    try {
      [row] = await trx('projects')
        .insert({
          id: randomUUID(),
          tenant_id: tenantId,
          name: input.name,
          settings: JSON.stringify({}),
          webhook_secret_enc: secrets.encrypt(randomToken('whsec_', 32)),
        })
        .returning<ProjectRow[]>([...PROJECT_COLUMNS]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', `Project "${input.name}" already exists`);
      throw error;
    }
    const key = await insertKey(trx, row.id, { name: 'default', createdBy: input.createdBy });
    return { project: toProject(row), key };
  });
}

/** The tenant's live projects (deleted ones are gone from every listing). */
export async function listTenantProjects(db: Knex, tenantId: string): Promise<TenantProjectRecord[]> {
  const rows = await db<ProjectRow>('projects')
    .where({ tenant_id: tenantId })
    .whereNull('deleted_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(...PROJECT_COLUMNS);
  return rows.map(toProject);
}

/** One project of the tenant, deleted ones included (their erasure is still shown). */
export async function findTenantProject(
  db: Knex,
  tenantId: string,
  projectId: string,
): Promise<TenantProjectRecord | undefined> {
  if (!isUuid(projectId)) return undefined;
  const row = await db<ProjectRow>('projects')
    .where({ id: projectId, tenant_id: tenantId })
    .first(...PROJECT_COLUMNS);
  return row ? toProject(row) : undefined;
}

export async function renameTenantProject(
  db: Knex,
  tenantId: string,
  projectId: string,
  name: string,
): Promise<TenantProjectRecord> {
  try {
    const [row] = await db('projects')
      .where({ id: projectId, tenant_id: tenantId })
      .whereNull('deleted_at')
      .update({ name })
      .returning<ProjectRow[]>([...PROJECT_COLUMNS]);
    if (!row) throw new AppError('NOT_FOUND', 'Project not found');
    return toProject(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', `Project "${name}" already exists`);
    throw error;
  }
}

/**
 * Marks the project deleted and revokes every key it has, in one transaction: from here on no
 * key of it passes a key check that asks the database (cached ones within the cache TTL).
 */
export async function deleteTenantProject(db: Knex, tenantId: string, projectId: string): Promise<TenantProjectRecord> {
  return db.transaction(async (trx) => {
    const [row] = await trx('projects')
      .where({ id: projectId, tenant_id: tenantId })
      .whereNull('deleted_at')
      .update({ deleted_at: trx.fn.now(), name: trx.raw(`name || ' (deleted ' || ? || ')'`, [projectId]) })
      .returning<ProjectRow[]>([...PROJECT_COLUMNS]);
    if (!row) throw new AppError('NOT_FOUND', 'Project not found');
    await trx('api_keys').where({ project_id: projectId }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    return toProject(row);
  });
}

export async function listProjectKeys(db: Knex, projectId: string): Promise<KeyRecord[]> {
  const rows = await db<KeyRow>('api_keys')
    .where({ project_id: projectId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(...KEY_COLUMNS);
  return rows.map(toKey);
}

export async function createProjectKey(
  db: Knex,
  projectId: string,
  input: { name: string; createdBy: string | null },
): Promise<IssuedKey> {
  return insertKey(db, projectId, input);
}

async function activeKey(db: Knex, projectId: string, keyId: string): Promise<KeyRow> {
  const row = isUuid(keyId)
    ? await db<KeyRow>('api_keys')
        .where({ id: keyId, project_id: projectId })
        .whereNull('revoked_at')
        .first(...KEY_COLUMNS)
    : undefined;
  if (!row) throw new AppError('NOT_FOUND', 'Key not found');
  return row;
}

/**
 * A new pair under the same name; the old one keeps working until it is revoked, or until
 * `oldExpiresAt` when given.
 */
export async function rotateProjectKey(
  db: Knex,
  projectId: string,
  keyId: string,
  input: { createdBy: string | null; oldExpiresAt?: Date },
): Promise<{ key: IssuedKey; previous: KeyRecord }> {
  return db.transaction(async (trx) => {
    const old = await activeKey(trx, projectId, keyId);
    let previous = toKey(old);
    if (input.oldExpiresAt) {
      const [row] = await trx('api_keys')
        .where({ id: keyId })
        .update({ expires_at: input.oldExpiresAt })
        .returning<KeyRow[]>([...KEY_COLUMNS]);
      previous = toKey(row);
    }
    const key = await insertKey(trx, projectId, { name: old.name, createdBy: input.createdBy });
    return { key, previous };
  });
}

export async function revokeProjectKey(db: Knex, projectId: string, keyId: string): Promise<KeyRecord> {
  await activeKey(db, projectId, keyId);
  const [row] = await db('api_keys')
    .where({ id: keyId, project_id: projectId })
    .update({ revoked_at: db.fn.now() })
    .returning<KeyRow[]>([...KEY_COLUMNS]);
  return toKey(row);
}

/** A project by its tenant's and its own technical names (the platform's reserved projects). */
export async function findProjectByNames(
  db: Knex,
  tenantName: string,
  projectName: string,
): Promise<{ tenantId: string; projectId: string } | undefined> {
  const row = await db('projects as p')
    .join('tenants as t', 't.id', 'p.tenant_id')
    .where({ 't.name': tenantName, 'p.name': projectName })
    .first('p.id as project_id', 't.id as tenant_id');
  return row ? { tenantId: row.tenant_id, projectId: row.project_id } : undefined;
}

/** Whose an active key is (the command line names keys by their public key). */
export async function findActiveKeyOwner(
  db: Knex,
  publicKey: string,
): Promise<{ keyId: string; projectId: string; tenantId: string } | undefined> {
  const row = await db('api_keys as k')
    .join('projects as p', 'p.id', 'k.project_id')
    .where('k.public_key', publicKey)
    .whereNull('k.revoked_at')
    .whereNull('p.deleted_at')
    .first('k.id', 'p.id as project_id', 'p.tenant_id');
  return row ? { keyId: row.id, projectId: row.project_id, tenantId: row.tenant_id } : undefined;
}

/** The tenant of a live project (the command line names projects by id alone). */
export async function tenantOfProject(db: Knex, projectId: string): Promise<string | undefined> {
  if (!isUuid(projectId)) return undefined;
  const row = await db('projects').where({ id: projectId }).whereNull('deleted_at').first('tenant_id');
  return row?.tenant_id;
}
