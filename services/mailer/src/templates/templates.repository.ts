import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import { isUuid } from '@platform/tenancy';
import type { Tenant } from '@platform/tenancy';
import type { TemplateContent, TemplateFields, TemplateVariants } from './templates.model';

/** A row as stored: snake_case, read with an explicit column list. */
export interface TemplateRow extends TemplateContent {
  id: string;
  name: string;
  template_key: string | null;
  variants: TemplateVariants;
  created_at: Date;
  updated_at: Date;
}

/** A row of the list: no content, the locales that have a variant instead. */
export type TemplateSummaryRow = Omit<TemplateRow, 'html' | 'text' | 'variants'> & { locales: string[] };

const TABLE = 'email_templates';
const COLUMNS = [
  'id',
  'name',
  'template_key',
  'subject',
  'html',
  'text',
  'variants',
  'created_at',
  'updated_at',
] as const;
const SUMMARY_COLUMNS = ['id', 'name', 'template_key', 'subject', 'created_at', 'updated_at'] as const;

export async function insertTemplate(db: Knex, tenant: Tenant, fields: TemplateFields): Promise<TemplateRow> {
  const [row] = await tenantTable(db, tenant, TABLE)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      name: fields.name,
      template_key: fields.templateKey,
      subject: fields.subject,
      html: fields.html,
      text: fields.text,
      variants: JSON.stringify(fields.variants),
    })
    .returning<TemplateRow[]>([...COLUMNS]);
  return row;
}

export async function listTemplates(
  db: Knex,
  tenant: Tenant,
  page: { limit: number; offset: number },
): Promise<{ rows: TemplateSummaryRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    tenantTable<TemplateRow>(db, tenant, TABLE)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset)
      .select<TemplateSummaryRow[]>([
        ...SUMMARY_COLUMNS,
        db.raw('array(select jsonb_object_keys(variants) order by 1) as "locales"'),
      ]),
    tenantTable<TemplateRow>(db, tenant, TABLE).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export async function findTemplate(db: Knex, tenant: Tenant, id: string): Promise<TemplateRow | undefined> {
  if (!isUuid(id)) return undefined;
  return tenantTable<TemplateRow>(db, tenant, TABLE)
    .where({ id })
    .first(...COLUMNS);
}

/** By templateKey or by id (send accepts either), in one query; a templateKey match wins. */
export async function findTemplateByIdOrKey(
  db: Knex,
  tenant: Tenant,
  idOrKey: string,
): Promise<TemplateRow | undefined> {
  return tenantTable<TemplateRow>(db, tenant, TABLE)
    .where((q) => {
      q.where({ template_key: idOrKey });
      if (isUuid(idOrKey)) q.orWhere({ id: idOrKey });
    })
    .orderByRaw('template_key = ? desc nulls last', [idOrKey])
    .first(...COLUMNS);
}

export async function updateTemplate(
  db: Knex,
  tenant: Tenant,
  id: string,
  fields: Partial<TemplateFields>,
): Promise<TemplateRow | undefined> {
  if (!isUuid(id)) return undefined;
  // Strictly later by at least 1 ms, so the compiled-template cache (keyed by id and
  // updatedAt in ms) can never mistake an edited template for the previous version.
  const changes: Record<string, unknown> = {
    updated_at: db.raw("greatest(now(), updated_at + interval '1 millisecond')"),
  };
  if (fields.name !== undefined) changes.name = fields.name;
  if (fields.templateKey !== undefined) changes.template_key = fields.templateKey;
  if (fields.subject !== undefined) changes.subject = fields.subject;
  if (fields.html !== undefined) changes.html = fields.html;
  if (fields.text !== undefined) changes.text = fields.text;
  if (fields.variants !== undefined) changes.variants = JSON.stringify(fields.variants);
  const [row] = await tenantTable<TemplateRow>(db, tenant, TABLE)
    .where({ id })
    .update(changes)
    .returning<TemplateRow[]>([...COLUMNS]);
  return row;
}

export async function deleteTemplate(db: Knex, tenant: Tenant, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await tenantTable<TemplateRow>(db, tenant, TABLE).where({ id }).delete()) > 0;
}
