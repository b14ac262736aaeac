import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { TenantContext } from '@platform/tenancy';

export interface ContentTypeRow {
  id: string;
  name: string;
  description: string | null;
  schema: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = {
  id: 'id',
  name: 'name',
  description: 'description',
  schema: 'schema',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const RETURNING = Object.entries(COLUMNS).map(([alias, column]) => `${column} as ${alias}`);

const scoped = (db: Knex, tenant: TenantContext) =>
  db('content_types').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

export async function insertContentType(
  db: Knex,
  tenant: TenantContext,
  input: { name: string; description: string | null; schema: Record<string, unknown> },
): Promise<ContentTypeRow> {
  const [row] = await db('content_types')
    .insert({
      id: randomUUID(),
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
      name: input.name,
      description: input.description,
      schema: JSON.stringify(input.schema),
    })
    .returning(RETURNING);
  return row;
}

export async function listContentTypes(db: Knex, tenant: TenantContext): Promise<ContentTypeRow[]> {
  return scoped(db, tenant)
    .select(COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

export async function findContentTypeById(
  db: Knex,
  tenant: TenantContext,
  id: string,
): Promise<ContentTypeRow | undefined> {
  return scoped(db, tenant).where({ id }).first(COLUMNS);
}

export async function findContentTypeByName(
  db: Knex,
  tenant: TenantContext,
  name: string,
): Promise<ContentTypeRow | undefined> {
  return scoped(db, tenant).where({ name }).first(COLUMNS);
}

export async function updateContentType(
  db: Knex,
  tenant: TenantContext,
  id: string,
  changes: { description?: string | null; schema?: Record<string, unknown> },
): Promise<ContentTypeRow | undefined> {
  const patch: Record<string, unknown> = { updated_at: db.fn.now() };
  if (changes.description !== undefined) patch.description = changes.description;
  if (changes.schema !== undefined) patch.schema = JSON.stringify(changes.schema);
  const [row] = await scoped(db, tenant).where({ id }).update(patch).returning(RETURNING);
  return row;
}
