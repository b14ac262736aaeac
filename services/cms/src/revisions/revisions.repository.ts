import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Page, Tenant } from '@platform/tenancy';
import type { ContentItemRow, ContentStatus } from '../content/content.model';
import type { RevisionChange } from './revisions.model';

export type { RevisionChange } from './revisions.model';

export interface RevisionRow {
  content_id: string;
  number: number;
  change: RevisionChange;
  title: string;
  slug: string;
  content: string;
  status: ContentStatus;
  metadata: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = ['content_id', 'number', 'change', 'title', 'slug', 'content', 'status', 'metadata', 'created_at'];

const TABLE = 'content_revisions';

const revisionsOf = (db: Knex, tenant: Tenant, contentId: string) =>
  tenantTable<RevisionRow>(db, tenant, TABLE).where({ content_id: contentId });

/** The item as it is now, as revision `item.revision`: call it in the transaction that changed it. */
export async function insertRevision(
  trx: Knex.Transaction,
  tenant: Tenant,
  item: ContentItemRow,
  change: RevisionChange,
): Promise<void> {
  await tenantTable(trx, tenant, TABLE).insert({
    ...tenantColumns(tenant),
    content_id: item.id,
    number: item.revision,
    change,
    title: item.title,
    slug: item.slug,
    content: item.content,
    status: item.status,
    metadata: JSON.stringify(item.metadata),
  });
}

export async function listRevisions(
  db: Knex,
  tenant: Tenant,
  contentId: string,
  page: Page,
): Promise<{ rows: RevisionRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    revisionsOf(db, tenant, contentId)
      .select(...COLUMNS)
      .orderBy('number', 'desc')
      .limit(page.limit)
      .offset(page.offset),
    revisionsOf(db, tenant, contentId).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows: rows as RevisionRow[], total: Number(count) };
}

export async function findRevision(
  db: Knex,
  tenant: Tenant,
  contentId: string,
  number: number,
): Promise<RevisionRow | undefined> {
  return revisionsOf(db, tenant, contentId)
    .where({ number })
    .first(...COLUMNS);
}

export async function deleteRevisions(trx: Knex.Transaction, tenant: Tenant, contentId: string): Promise<void> {
  await revisionsOf(trx, tenant, contentId).delete();
}
