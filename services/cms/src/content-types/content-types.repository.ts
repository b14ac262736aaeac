import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ownerColumns, tenantTable } from '@platform/db';
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

const TABLE = 'content_types';

export async function insertContentType(
  db: Knex,
  tenant: TenantContext,
  input: { name: string; description: string | null; schema: Record<string, unknown> },
): Promise<ContentTypeRow> {
  const [row] = await tenantTable(db, tenant, TABLE)
    .insert({
      id: randomUUID(),
      ...ownerColumns(tenant),
      name: input.name,
      description: input.description,
      schema: JSON.stringify(input.schema),
    })
    .returning<ContentTypeRow[]>(RETURNING);
  return row;
}

export async function listContentTypes(db: Knex, tenant: TenantContext): Promise<ContentTypeRow[]> {
  const rows = await tenantTable(db, tenant, TABLE)
    .select(COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return rows as ContentTypeRow[];
}

export async function findContentTypeById(
  db: Knex,
  tenant: TenantContext,
  id: string,
): Promise<ContentTypeRow | undefined> {
  return (await tenantTable(db, tenant, TABLE).where({ id }).first(COLUMNS)) as ContentTypeRow | undefined;
}

export async function findContentTypeByName(
  db: Knex,
  tenant: TenantContext,
  name: string,
): Promise<ContentTypeRow | undefined> {
  return (await tenantTable(db, tenant, TABLE).where({ name }).first(COLUMNS)) as ContentTypeRow | undefined;
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
  const [row] = await tenantTable(db, tenant, TABLE).where({ id }).update(patch).returning<ContentTypeRow[]>(RETURNING);
  return row;
}
