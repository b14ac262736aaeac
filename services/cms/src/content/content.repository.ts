import type { Knex } from 'knex';
import { tenantColumns, sharedTable, tenantTable } from '@platform/db';
import type { Page, Tenant } from '@platform/tenancy';
import type { ContentChanges, ContentFilters, ContentItemRow, ContentKind, NewContentItem } from './content.model';

export type { ContentItemRow } from './content.model';

export type ContentSummaryRow = Pick<
  ContentItemRow,
  'id' | 'type' | 'title' | 'slug' | 'status' | 'publish_at' | 'unpublish_at' | 'created_at'
>;

export const SLUG_CONSTRAINT = 'content_items_slug_unique';

const COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'type',
  'title',
  'slug',
  'content',
  'status',
  'metadata',
  'content_type',
  'revision',
  'publish_at',
  'unpublish_at',
  'draft',
  'draft_publish_at',
  'created_at',
  'updated_at',
];

const SUMMARY_COLUMNS = ['id', 'type', 'title', 'slug', 'status', 'publish_at', 'unpublish_at', 'created_at'];

const LIVE_FIELDS = ['title', 'slug', 'content', 'status', 'metadata'] as const;

const TABLE = 'content_items';

export async function insertContentItem(db: Knex, tenant: Tenant, item: NewContentItem): Promise<ContentItemRow> {
  const [row] = await tenantTable(db, tenant, TABLE)
    .insert({
      id: item.id,
      ...tenantColumns(tenant),
      type: item.type,
      title: item.title,
      slug: item.slug,
      content: item.content,
      status: item.status,
      metadata: JSON.stringify(item.metadata),
      content_type: item.contentType,
      publish_at: item.publishAt,
      unpublish_at: item.unpublishAt,
      search_language: item.searchLanguage,
      revision: 1,
    })
    .returning<ContentItemRow[]>(COLUMNS);
  return row;
}

/** Serialises slug generation for one base within a type until the transaction ends. */
export async function lockSlugBase(
  trx: Knex.Transaction,
  tenant: Tenant,
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
  tenant: Tenant,
  type: ContentKind,
  base: string,
): Promise<{ baseTaken: boolean; highestSuffix: number }> {
  const suffix = `^${base}-([1-9][0-9]{0,8})$`;
  const row: { base_taken: boolean | null; highest_suffix: string | null } = await tenantTable(db, tenant, TABLE)
    .where({ type })
    .andWhere((q) => q.where({ slug: base }).orWhereRaw('slug ~ ?', [suffix]))
    .first(
      db.raw('bool_or(slug = ?) AS base_taken', [base]),
      db.raw('max(substring(slug from ?)::bigint) AS highest_suffix', [suffix]),
    );
  return { baseTaken: Boolean(row?.base_taken), highestSuffix: Number(row?.highest_suffix ?? 0) };
}

export async function findContentItem(
  db: Knex,
  tenant: Tenant,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ContentItemRow | undefined> {
  const query = tenantTable<ContentItemRow>(db, tenant, TABLE)
    .where({ id })
    .first(...COLUMNS);
  return options.lock ? query.forUpdate() : query;
}

export interface SearchQuery {
  text: string;
  language: string;
}

/**
 * A page of summaries, newest first; with `search`, the matches ranked (title above content
 * above metadata) by `websearch_to_tsquery`, which accepts any text: words, "phrases", -not.
 */
export async function listContentItems(
  db: Knex,
  tenant: Tenant,
  filters: ContentFilters,
  page: Page,
  search?: SearchQuery,
): Promise<{ rows: ContentSummaryRow[]; total: number }> {
  const where: Record<string, string> = {};
  if (filters.type) where.type = filters.type;
  if (filters.status) where.status = filters.status;
  if (filters.slug) where.slug = filters.slug;
  const matching = () => {
    const query = tenantTable(db, tenant, TABLE).where(where);
    return search
      ? query.whereRaw('search @@ websearch_to_tsquery(?::regconfig, ?)', [search.language, search.text])
      : query;
  };
  const order = [
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ];
  const rows = matching()
    .select(...SUMMARY_COLUMNS)
    .limit(page.limit)
    .offset(page.offset);
  if (search) {
    rows.orderByRaw('ts_rank(search, websearch_to_tsquery(?::regconfig, ?)) DESC', [search.language, search.text]);
  }
  const [found, [{ count }]] = await Promise.all([
    rows.orderBy(order),
    matching().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows: found as ContentSummaryRow[], total: Number(count) };
}

export async function updateContentItem(
  db: Knex,
  tenant: Tenant,
  id: string,
  changes: ContentChanges,
): Promise<ContentItemRow | undefined> {
  const patch: Record<string, unknown> = { updated_at: db.fn.now() };
  if (changes.title !== undefined) patch.title = changes.title;
  if (changes.slug !== undefined) patch.slug = changes.slug;
  if (changes.content !== undefined) patch.content = changes.content;
  if (changes.status !== undefined) patch.status = changes.status;
  if (changes.metadata !== undefined) patch.metadata = JSON.stringify(changes.metadata);
  if (changes.publishAt !== undefined) patch.publish_at = changes.publishAt;
  if (changes.unpublishAt !== undefined) patch.unpublish_at = changes.unpublishAt;
  if (changes.draft !== undefined) {
    patch.draft = changes.draft === null ? null : JSON.stringify(changes.draft);
    patch.draft_updated_at = changes.draft === null ? null : db.fn.now();
  }
  if (changes.draftPublishAt !== undefined) patch.draft_publish_at = changes.draftPublishAt;
  if (changes.searchLanguage !== undefined) patch.search_language = changes.searchLanguage;
  // Only a change readers can see is a new revision; a draft alone is not.
  if (LIVE_FIELDS.some((field) => changes[field] !== undefined)) patch.revision = db.raw('revision + 1');
  const [row] = await tenantTable(db, tenant, TABLE).where({ id }).update(patch).returning<ContentItemRow[]>(COLUMNS);
  return row;
}

export async function deleteContentItem(db: Knex, tenant: Tenant, id: string): Promise<boolean> {
  return (await tenantTable(db, tenant, TABLE).where({ id }).delete()) > 0;
}

/**
 * Items with a publishAt, unpublishAt or draft publishAt that has come, locked for this
 * transaction; rows another replica is working on are skipped, so each is applied once.
 */
export async function lockDueItems(trx: Knex.Transaction, limit: number): Promise<ContentItemRow[]> {
  // A sweep over every project's items: each row carries its owner, which the caller uses.
  return sharedTable<ContentItemRow>(trx, TABLE)
    .where('publish_at', '<=', trx.fn.now())
    .orWhere('unpublish_at', '<=', trx.fn.now())
    .orWhere('draft_publish_at', '<=', trx.fn.now())
    .select(...COLUMNS)
    .limit(limit)
    .forUpdate()
    .skipLocked();
}
