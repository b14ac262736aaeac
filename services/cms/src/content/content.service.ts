import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isUniqueViolation } from '@platform/db';
import { withOutbox } from '@platform/events';
import { errors, isUuid, type Tenant, type TenantContext } from '@platform/tenancy';
import type { ContentValidator } from '../content-types/content-validation';
import { validateContent } from '../content-types/content-types.service';
import type { RevisionChange } from '../revisions/revisions.model';
import { recordChange, recordDeletion } from './content-changes';
import { toContentItem, toContentSummary, toDraftView, type ContentItem, type ContentSummary } from './content.mapper';
import type { ContentChanges, ContentItemRow, DraftFields, NewContentItem } from './content.model';
import * as repo from './content.repository';
import type { CreateContentInput, ListContentQuery, UpdateContentInput } from './content.schemas';
import { searchLanguageOf } from './search-language';
import { nextFreeSlug, slugify } from './slug';

export type { ContentItem, ContentSummary } from './content.mapper';

type Relay = { kick(): void };

export interface ContentPage {
  content: ContentSummary[];
  total: number;
  limit: number;
  offset: number;
}

/** Whether `error` is a second item of one type taking a slug. */
export const isSlugConflict = (error: unknown): boolean => isUniqueViolation(error, repo.SLUG_CONSTRAINT);

const slugTaken = (slug: string) => errors.conflict(`The slug '${slug}' is already used by another item of this type`);

/** After this many lost races for a generated slug, a random suffix ends the contest. */
const SLUG_ATTEMPTS = 5;

const liveFieldsOf = (row: ContentItemRow): DraftFields => ({
  title: row.title,
  slug: row.slug,
  content: row.content,
  metadata: row.metadata,
});

async function findItem(db: Knex, tenant: Tenant, id: string, lock = false): Promise<ContentItemRow> {
  const row = isUuid(id) ? await repo.findContentItem(db, tenant, id, { lock }) : undefined;
  if (!row) throw errors.notFound('Content');
  return row;
}

/** Insert with its first revision and webhooks, in one transaction. */
async function insertItem(
  db: Knex,
  relay: Relay,
  tenant: Tenant,
  item: NewContentItem,
  lockBase?: string,
): Promise<ContentItemRow> {
  return withOutbox(db, relay, async (trx, outbox) => {
    if (lockBase !== undefined) {
      await repo.lockSlugBase(trx, tenant, item.type, lockBase);
      const slug = nextFreeSlug(lockBase, await repo.slugUsage(trx, tenant, item.type, lockBase));
      item = { ...item, slug };
    }
    const row = await repo.insertContentItem(trx, tenant, item);
    await recordChange(trx, outbox, tenant, null, row);
    return row;
  });
}

/** The title's slug, or the next free `-N`: optimistic first, queued on a lock after a lost race. */
async function insertWithGeneratedSlug(
  db: Knex,
  relay: Relay,
  tenant: Tenant,
  item: Omit<NewContentItem, 'slug'>,
): Promise<ContentItemRow> {
  const base = slugify(item.title);
  for (let attempt = 1; ; attempt++) {
    try {
      if (attempt === 1) {
        // Usually nobody else is creating this title: no lock.
        const slug = nextFreeSlug(base, await repo.slugUsage(db, tenant, item.type, base));
        return await insertItem(db, relay, tenant, { ...item, slug });
      }
      if (attempt > SLUG_ATTEMPTS) {
        return await insertItem(db, relay, tenant, { ...item, slug: `${base}-${randomBytes(4).toString('hex')}` });
      }
      return await insertItem(db, relay, tenant, { ...item, slug: base }, base);
    } catch (error) {
      // Also reached when an explicit slug written meanwhile took the computed one.
      if (!isSlugConflict(error) || attempt > SLUG_ATTEMPTS) throw error;
    }
  }
}

export async function createContent(
  db: Knex,
  relay: Relay,
  validator: ContentValidator,
  tenant: TenantContext,
  input: CreateContentInput,
): Promise<ContentItem> {
  // A custom item's content (live or draft) is a JSON document that its type's schema accepts.
  if (input.type === 'custom') await validateContent(db, validator, tenant, input.contentType as string, input.content);
  const item: Omit<NewContentItem, 'slug'> = {
    id: randomUUID(),
    type: input.type,
    title: input.title,
    content: input.content,
    status: input.status,
    metadata: input.metadata,
    contentType: input.type === 'custom' ? (input.contentType as string) : null,
    publishAt: input.publishAt ?? null,
    unpublishAt: input.unpublishAt ?? null,
    searchLanguage: searchLanguageOf(tenant),
  };
  const row = input.slug
    ? await insertItem(db, relay, tenant, { ...item, slug: input.slug }).catch((error: unknown) => {
        throw isSlugConflict(error) ? slugTaken(input.slug as string) : error;
      })
    : await insertWithGeneratedSlug(db, relay, tenant, item);
  return toContentItem(row);
}

export async function listContent(db: Knex, tenant: TenantContext, query: ListContentQuery): Promise<ContentPage> {
  const { limit, offset, q, ...filters } = query;
  const search = q === undefined ? undefined : { text: q, language: searchLanguageOf(tenant) };
  const { rows, total } = await repo.listContentItems(db, tenant, filters, { limit, offset }, search);
  return { content: rows.map(toContentSummary), total, limit, offset };
}

/** The live item, or with `version: 'draft'` what it will be once its pending draft is published. */
export async function getContent(
  db: Knex,
  tenant: Tenant,
  id: string,
  version: 'live' | 'draft' = 'live',
): Promise<ContentItem> {
  const row = await findItem(db, tenant, id);
  return version === 'draft' ? toDraftView(row) : toContentItem(row);
}

/** 404 unless the project has the item (for its sub-resources). */
export async function requireContent(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await findItem(db, tenant, id);
}

async function saveDraft(
  trx: Knex.Transaction,
  tenant: Tenant,
  before: ContentItemRow,
  changes: UpdateContentInput,
): Promise<ContentItemRow | undefined> {
  if (changes.status !== undefined) {
    throw errors.validation('A draft has no status of its own', [
      { path: 'status', message: 'status cannot change in a draft; publish it with POST /v1/content/{id}/publish' },
    ]);
  }
  const { publishAt, unpublishAt, ...fields } = changes;
  const draft = { ...(before.draft ?? liveFieldsOf(before)), ...fields } as DraftFields;
  return repo.updateContentItem(trx, tenant, before.id, {
    draft,
    ...(publishAt !== undefined ? { draftPublishAt: publishAt } : {}),
    ...(unpublishAt !== undefined ? { unpublishAt } : {}),
  });
}

/**
 * A change to the item; with `draft` on a published item, a change to its pending draft
 * instead (readers keep the published version; `publishAt` then schedules the draft).
 */
export async function updateContent(
  db: Knex,
  relay: Relay,
  validator: ContentValidator,
  tenant: TenantContext,
  id: string,
  changes: UpdateContentInput,
  options: { draft?: boolean } = {},
): Promise<ContentItem> {
  if (Object.keys(changes).length === 0) return getContent(db, tenant, id, options.draft ? 'draft' : 'live');
  // Read first (unlocked) only to validate: a custom item's type must accept new content.
  if (changes.content !== undefined) {
    const current = await findItem(db, tenant, id);
    if (current.type === 'custom') {
      await validateContent(db, validator, tenant, current.content_type as string, changes.content);
    }
  }
  const row = await changeContentItem(db, relay, tenant, id, async (trx, before) => {
    if (options.draft && before.status === 'published') return saveDraft(trx, tenant, before, changes);
    return repo.updateContentItem(trx, tenant, id, { ...changes, searchLanguage: searchLanguageOf(tenant) });
  }).catch((error: unknown) => {
    throw isSlugConflict(error) ? slugTaken(changes.slug as string) : error;
  });
  return options.draft ? toDraftView(row) : toContentItem(row);
}

/** Makes the pending draft live, or publishes an unpublished item; 409 when there is nothing to publish. */
export async function publishContent(db: Knex, relay: Relay, tenant: Tenant, id: string): Promise<ContentItem> {
  const row = await changeContentItem(db, relay, tenant, id, async (trx, before) => {
    if (!before.draft && before.status === 'published') {
      throw errors.conflict('The item is published and has no pending draft');
    }
    return publishDraft(trx, tenant, before);
  }).catch((error: unknown) => {
    throw isSlugConflict(error)
      ? errors.conflict("The draft's slug is already used by another item of this type")
      : error;
  });
  return toContentItem(row);
}

export async function discardDraft(db: Knex, relay: Relay, tenant: Tenant, id: string): Promise<void> {
  await changeContentItem(db, relay, tenant, id, async (trx, before) => {
    if (!before.draft) throw errors.notFound('Draft');
    return repo.updateContentItem(trx, tenant, id, { draft: null, draftPublishAt: null });
  });
}

export async function removeContent(db: Knex, relay: Relay, tenant: Tenant, id: string): Promise<void> {
  await withOutbox(db, relay, async (trx, outbox) => {
    const before = await findItem(trx, tenant, id, true);
    await repo.deleteContentItem(trx, tenant, id);
    await recordDeletion(trx, outbox, tenant, before);
  });
}

/**
 * The item locked for the transaction of one change, which writes its revision and webhooks;
 * every change goes through here (a restore too). 404 when the item is not there.
 */
export async function changeContentItem(
  db: Knex,
  relay: Relay,
  tenant: Tenant,
  id: string,
  apply: (trx: Knex.Transaction, before: ContentItemRow) => Promise<ContentItemRow | undefined>,
  change?: RevisionChange,
): Promise<ContentItemRow> {
  return withOutbox(db, relay, async (trx, outbox) => {
    const before = await findItem(trx, tenant, id, true);
    const after = await apply(trx, before);
    if (!after) throw errors.notFound('Content');
    await recordChange(trx, outbox, tenant, before, after, change);
    return after;
  });
}

/** The draft's fields made live and published; the draft and its schedule are gone. */
export function publishDraft(
  trx: Knex.Transaction,
  tenant: Tenant,
  before: ContentItemRow,
): Promise<ContentItemRow | undefined> {
  return repo.updateContentItem(trx, tenant, before.id, {
    ...(before.draft ?? {}),
    status: 'published',
    draft: null,
    draftPublishAt: null,
    ...(before.status === 'published' ? {} : { publishAt: null }),
  });
}

/** One change to an item's columns, in the caller's transaction (a restore, the schedule). */
export function updateContentItem(
  trx: Knex.Transaction,
  tenant: Tenant,
  id: string,
  changes: ContentChanges,
): Promise<ContentItemRow | undefined> {
  return repo.updateContentItem(trx, tenant, id, changes);
}
