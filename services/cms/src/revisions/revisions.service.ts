import type { Knex } from 'knex';
import { errors, type Page, type Tenant, type TenantContext } from '@platform/tenancy';
import { changeContentItem, isSlugConflict, requireContent, updateContentItem } from '../content/content.service';
import { toContentItem, type ContentItem } from '../content/content.mapper';
import { searchLanguageOf } from '../content/search-language';
import { toRevision, type Revision } from './revisions.mapper';
import * as repo from './revisions.repository';

// What a change to an item writes in its transaction (content-changes.ts).
export { deleteRevisions, insertRevision } from './revisions.repository';

export type { Revision } from './revisions.mapper';

/** An item's history: every change readers could see, newest first. */
export async function listRevisions(db: Knex, tenant: Tenant, contentId: string, page: Page) {
  await requireContent(db, tenant, contentId);
  const { rows, total } = await repo.listRevisions(db, tenant, contentId, page);
  return { revisions: rows.map(toRevision), total, limit: page.limit, offset: page.offset };
}

export async function getRevision(db: Knex, tenant: Tenant, contentId: string, number: number): Promise<Revision> {
  await requireContent(db, tenant, contentId);
  const row = await repo.findRevision(db, tenant, contentId, number);
  if (!row) throw errors.notFound('Revision');
  return toRevision(row);
}

/** The item becomes revision `number` again (fields and status), as a new revision; a pending draft stays. */
export async function restoreRevision(
  db: Knex,
  relay: { kick(): void },
  tenant: TenantContext,
  contentId: string,
  number: number,
): Promise<ContentItem> {
  const row = await changeContentItem(
    db,
    relay,
    tenant,
    contentId,
    async (trx, before) => {
      const revision = await repo.findRevision(trx, tenant, contentId, number);
      if (!revision) throw errors.notFound('Revision');
      return updateContentItem(trx, tenant, before.id, {
        title: revision.title,
        slug: revision.slug,
        content: revision.content,
        metadata: revision.metadata,
        status: revision.status,
        searchLanguage: searchLanguageOf(tenant),
      });
    },
    'restored',
  ).catch((error: unknown) => {
    if (isSlugConflict(error)) {
      throw errors.conflict(`The slug of revision ${number} is now used by another item of this type`);
    }
    throw error;
  });
  return toContentItem(row);
}
