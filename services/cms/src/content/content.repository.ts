import type { Knex } from 'knex';
import type { Page, TenantContext } from '@platform/tenancy';

export type ContentKind = 'blog' | 'faq' | 'page' | 'custom';
export type ContentStatus = 'draft' | 'published' | 'archived';

export interface ContentItemRow {
  id: string;
  tenantId: string;
  projectId: string;
  type: ContentKind;
  title: string;
  slug: string;
  content: string;
  status: ContentStatus;
  metadata: Record<string, unknown>;
  contentType: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type ContentSummaryRow = Pick<ContentItemRow, 'id' | 'type' | 'title' | 'slug' | 'status' | 'createdAt'>;

export type ContentFilters = Partial<Pick<ContentItemRow, 'type' | 'status' | 'slug'>>;

export type NewContentItem = Omit<ContentItemRow, 'tenantId' | 'projectId' | 'createdAt' | 'updatedAt'>;

export type ContentChanges = Partial<Pick<ContentItemRow, 'title' | 'slug' | 'content' | 'status' | 'metadata'>>;

export const SLUG_CONSTRAINT = 'content_items_slug_unique';

const COLUMNS = {
  id: 'id',
  tenantId: 'tenant_id',
  projectId: 'project_id',
  type: 'type',
  title: 'title',
  slug: 'slug',
  content: 'content',
  status: 'status',
  metadata: 'metadata',
  contentType: 'content_type',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const SUMMARY_COLUMNS = {
  id: 'id',
  type: 'type',
  title: 'title',
  slug: 'slug',
  status: 'status',
  createdAt: 'created_at',
};

const RETURNING = Object.entries(COLUMNS).map(([alias, column]) => `${column} as ${alias}`);

const scoped = (db: Knex, tenant: TenantContext) =>
  db('content_items').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

export async function insertContentItem(
  db: Knex,
  tenant: TenantContext,
  item: NewContentItem,
): Promise<ContentItemRow> {
  const [row] = await db('content_items')
    .insert({
      id: item.id,
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
      type: item.type,
      title: item.title,
      slug: item.slug,
      content: item.content,
      status: item.status,
      metadata: JSON.stringify(item.metadata),
      content_type: item.contentType,
    })
    .returning(RETURNING);
  return row;
}

/** Serialises slug generation for one base within a type until the transaction ends. */
export async function lockSlugBase(
  trx: Knex.Transaction,
  tenant: TenantContext,
  type: ContentKind,
  base: string,
): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [
    `cms.slug:${tenant.projectId}:${type}:${base}`,
  ]);
}

/**
 * Whether `base` is taken in this type, and the highest N of the `base-N` slugs; one row
 * however many items share the title. `base` holds only [a-z0-9-], so it is safe in a regex.
 */
export async function slugUsage(
  db: Knex,
  tenant: TenantContext,
  type: ContentKind,
  base: string,
): Promise<{ baseTaken: boolean; highestSuffix: number }> {
  const suffix = `^${base}-([1-9][0-9]{0,8})$`;
  const row: { baseTaken: boolean | null; highestSuffix: string | null } = await scoped(db, tenant)
    .where({ type })
    .andWhere((q) => q.where({ slug: base }).orWhereRaw('slug ~ ?', [suffix]))
    .first(
      db.raw('bool_or(slug = ?) AS "baseTaken"', [base]),
      db.raw('max(substring(slug from ?)::bigint) AS "highestSuffix"', [suffix]),
    );
  return { baseTaken: Boolean(row?.baseTaken), highestSuffix: Number(row?.highestSuffix ?? 0) };
}

export async function findContentItem(
  db: Knex,
  tenant: TenantContext,
  id: string,
): Promise<ContentItemRow | undefined> {
  return scoped(db, tenant).where({ id }).first(COLUMNS);
}

export async function listContentItems(
  db: Knex,
  tenant: TenantContext,
  filters: ContentFilters,
  page: Page,
): Promise<{ rows: ContentSummaryRow[]; total: number }> {
  const where: Record<string, string> = {};
  if (filters.type) where.type = filters.type;
  if (filters.status) where.status = filters.status;
  if (filters.slug) where.slug = filters.slug;
  const [rows, [{ count }]] = await Promise.all([
    scoped(db, tenant)
      .where(where)
      .select(SUMMARY_COLUMNS)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset),
    scoped(db, tenant).where(where).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export async function updateContentItem(
  db: Knex,
  tenant: TenantContext,
  id: string,
  changes: ContentChanges,
): Promise<ContentItemRow | undefined> {
  const patch: Record<string, unknown> = { updated_at: db.fn.now() };
  if (changes.title !== undefined) patch.title = changes.title;
  if (changes.slug !== undefined) patch.slug = changes.slug;
  if (changes.content !== undefined) patch.content = changes.content;
  if (changes.status !== undefined) patch.status = changes.status;
  if (changes.metadata !== undefined) patch.metadata = JSON.stringify(changes.metadata);
  const [row] = await scoped(db, tenant).where({ id }).update(patch).returning(RETURNING);
  return row;
}

export async function deleteContentItem(db: Knex, tenant: TenantContext, id: string): Promise<boolean> {
  return (await scoped(db, tenant).where({ id }).delete()) > 0;
}
