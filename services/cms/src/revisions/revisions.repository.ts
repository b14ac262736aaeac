import type { Knex } from 'knex';
import type { Page, Tenant } from '@platform/tenancy';
import type { ContentItemRow, ContentStatus } from '../content/content.repository';

/** What caused a revision. */
export type RevisionChange = 'created' | 'updated' | 'published' | 'unpublished' | 'restored';

export interface RevisionRow {
  contentId: string;
  number: number;
  change: RevisionChange;
  title: string;
  slug: string;
  content: string;
  status: ContentStatus;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

const COLUMNS = {
  contentId: 'content_id',
  number: 'number',
  change: 'change',
  title: 'title',
  slug: 'slug',
  content: 'content',
  status: 'status',
  metadata: 'metadata',
  createdAt: 'created_at',
};

const scoped = (db: Knex, tenant: Tenant, contentId: string) =>
  db('content_revisions').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId, content_id: contentId });

/** The item as it is now, as revision `item.revision`: call it in the transaction that changed it. */
export async function insertRevision(
  trx: Knex.Transaction,
  tenant: Tenant,
  item: ContentItemRow,
  change: RevisionChange,
): Promise<void> {
  await trx('content_revisions').insert({
    tenant_id: tenant.tenantId,
    project_id: tenant.projectId,
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
    scoped(db, tenant, contentId).select(COLUMNS).orderBy('number', 'desc').limit(page.limit).offset(page.offset),
    scoped(db, tenant, contentId).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export async function findRevision(
  db: Knex,
  tenant: Tenant,
  contentId: string,
  number: number,
): Promise<RevisionRow | undefined> {
  return scoped(db, tenant, contentId).where({ number }).first(COLUMNS);
}

export async function deleteRevisions(trx: Knex.Transaction, tenant: Tenant, contentId: string): Promise<void> {
  await scoped(trx, tenant, contentId).delete();
}
