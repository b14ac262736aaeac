import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

export interface ContentTypeRow {
  id: string;
  name: string;
  description: string | null;
  schema: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface NewContentType {
  name: string;
  description: string | null;
  schema: Record<string, unknown>;
}

export interface ContentTypeChanges {
  description?: string | null;
  schema?: Record<string, unknown>;
}

const COLUMNS = ['id', 'name', 'description', 'schema', 'created_at', 'updated_at'];

const TABLE = 'content_types';

export async function insertContentType(db: Knex, tenant: Tenant, input: NewContentType): Promise<ContentTypeRow> {
  const [row] = await tenantTable(db, tenant, TABLE)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      name: input.name,
      description: input.description,
      schema: JSON.stringify(input.schema),
    })
    .returning<ContentTypeRow[]>(COLUMNS);
  return row;
}

export async function listContentTypes(db: Knex, tenant: Tenant): Promise<ContentTypeRow[]> {
  return tenantTable<ContentTypeRow>(db, tenant, TABLE)
    .select(...COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

export async function findContentTypeById(db: Knex, tenant: Tenant, id: string): Promise<ContentTypeRow | undefined> {
  return tenantTable<ContentTypeRow>(db, tenant, TABLE)
    .where({ id })
    .first(...COLUMNS);
}

export async function findContentTypeByName(
  db: Knex,
  tenant: Tenant,
  name: string,
): Promise<ContentTypeRow | undefined> {
  return tenantTable<ContentTypeRow>(db, tenant, TABLE)
    .where({ name })
    .first(...COLUMNS);
}

export async function updateContentType(
  db: Knex,
  tenant: Tenant,
  id: string,
  changes: ContentTypeChanges,
): Promise<ContentTypeRow | undefined> {
  const patch: Record<string, unknown> = { updated_at: db.fn.now() };
  if (changes.description !== undefined) patch.description = changes.description;
  if (changes.schema !== undefined) patch.schema = JSON.stringify(changes.schema);
  const [row] = await tenantTable(db, tenant, TABLE).where({ id }).update(patch).returning<ContentTypeRow[]>(COLUMNS);
  return row;
}
