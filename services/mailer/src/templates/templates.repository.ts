import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isUuid } from '@platform/tenancy';
import type { Tenant } from '../shared';

/** One locale's content; the template's own fields are the default. */
export interface TemplateContent {
  subject: string;
  html: string;
  text: string | null;
}

export type TemplateVariants = Record<string, TemplateContent>;

export interface TemplateRow extends TemplateContent {
  id: string;
  name: string;
  templateKey: string | null;
  variants: TemplateVariants;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = [
  'id',
  'name',
  'template_key as templateKey',
  'subject',
  'html',
  'text',
  'variants',
  'created_at as createdAt',
  'updated_at as updatedAt',
];
const SUMMARY_COLUMNS = [
  'id',
  'name',
  'template_key as templateKey',
  'subject',
  'created_at as createdAt',
  'updated_at as updatedAt',
];

export type TemplateSummaryRow = Omit<TemplateRow, 'html' | 'text' | 'variants'> & { locales: string[] };

export interface TemplateFields {
  name: string;
  templateKey: string | null;
  subject: string;
  html: string;
  text: string | null;
  variants: TemplateVariants;
}

const scoped = (db: Knex, tenant: Tenant) =>
  db('email_templates').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

export async function insertTemplate(db: Knex, tenant: Tenant, fields: TemplateFields): Promise<TemplateRow> {
  const [row] = await db('email_templates')
    .insert({
      id: randomUUID(),
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
      name: fields.name,
      template_key: fields.templateKey,
      subject: fields.subject,
      html: fields.html,
      text: fields.text,
      variants: JSON.stringify(fields.variants),
    })
    .returning(COLUMNS);
  return row;
}

export async function listTemplates(
  db: Knex,
  tenant: Tenant,
  page: { limit: number; offset: number },
): Promise<{ rows: TemplateSummaryRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    scoped(db, tenant)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset)
      .select([...SUMMARY_COLUMNS, db.raw('array(select jsonb_object_keys(variants) order by 1) as "locales"')]),
    scoped(db, tenant).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export async function findTemplate(db: Knex, tenant: Tenant, id: string): Promise<TemplateRow | undefined> {
  if (!isUuid(id)) return undefined;
  return scoped(db, tenant).where({ id }).first(COLUMNS);
}

/** By templateKey or by id (send accepts either), in one query; a templateKey match wins. */
export async function findTemplateByIdOrKey(
  db: Knex,
  tenant: Tenant,
  idOrKey: string,
): Promise<TemplateRow | undefined> {
  return scoped(db, tenant)
    .where((q) => {
      q.where({ template_key: idOrKey });
      if (isUuid(idOrKey)) q.orWhere({ id: idOrKey });
    })
    .orderByRaw('template_key = ? desc nulls last', [idOrKey])
    .first(COLUMNS);
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
  const [row] = await scoped(db, tenant).where({ id }).update(changes).returning(COLUMNS);
  return row;
}

export async function deleteTemplate(db: Knex, tenant: Tenant, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await scoped(db, tenant).where({ id }).delete()) > 0;
}
