import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { errors, isUuid, toIso, type TenantContext } from '@platform/tenancy';
import type { ContentTypesService } from '../content-types/content-types.service';
import * as repo from './content.repository';
import type { ContentItemRow, ContentSummaryRow, NewContentItem } from './content.repository';
import type { CreateContentInput, ListContentQuery, UpdateContentInput } from './content.schemas';
import { isUniqueViolation } from '@platform/db';
import { nextFreeSlug, slugify } from './slug';

/** The API shapes: the rows with their timestamps as ISO strings. */
export type ContentItem = Omit<ContentItemRow, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string };
export type ContentSummary = Omit<ContentSummaryRow, 'createdAt'> & { createdAt: string };

export interface ContentPage {
  content: ContentSummary[];
  total: number;
  limit: number;
  offset: number;
}

// The rows come from explicit column lists, so spreading them exposes nothing more.
const toContentItem = (row: ContentItemRow): ContentItem => ({
  ...row,
  createdAt: toIso(row.createdAt) as string,
  updatedAt: toIso(row.updatedAt) as string,
});

const toSummary = (row: ContentSummaryRow): ContentSummary => ({ ...row, createdAt: toIso(row.createdAt) as string });

const isSlugConflict = (error: unknown) => isUniqueViolation(error, repo.SLUG_CONSTRAINT);

const slugTaken = (slug: string) => errors.conflict(`The slug '${slug}' is already used by another item of this type`);

/** After this many lost races for a generated slug, a random suffix ends the contest. */
const SLUG_ATTEMPTS = 5;

/** Content items: slugs, custom-type validation, partial updates. */
export class ContentService {
  constructor(
    private readonly db: Knex,
    private readonly contentTypes: ContentTypesService,
  ) {}

  async create(tenant: TenantContext, input: CreateContentInput): Promise<ContentItem> {
    if (input.type === 'custom') await this.validateCustomContent(tenant, input.contentType as string, input.content);
    const item: Omit<NewContentItem, 'slug'> = {
      id: randomUUID(),
      type: input.type,
      title: input.title,
      content: input.content,
      status: input.status,
      metadata: input.metadata,
      contentType: input.type === 'custom' ? (input.contentType as string) : null,
    };
    if (!input.slug) return toContentItem(await this.insertWithGeneratedSlug(tenant, item));
    try {
      return toContentItem(await repo.insertContentItem(this.db, tenant, { ...item, slug: input.slug }));
    } catch (error) {
      if (isSlugConflict(error)) throw slugTaken(input.slug);
      throw error;
    }
  }

  async list(tenant: TenantContext, query: ListContentQuery): Promise<ContentPage> {
    const { limit, offset, ...filters } = query;
    const { rows, total } = await repo.listContentItems(this.db, tenant, filters, { limit, offset });
    return { content: rows.map(toSummary), total, limit, offset };
  }

  async get(tenant: TenantContext, id: string): Promise<ContentItem> {
    return toContentItem(await this.find(tenant, id));
  }

  async update(tenant: TenantContext, id: string, changes: UpdateContentInput): Promise<ContentItem> {
    if (Object.keys(changes).length === 0) return this.get(tenant, id);
    // Only new content needs the stored item first: a custom item's type must accept it.
    if (changes.content !== undefined) {
      const current = await this.find(tenant, id);
      if (current.type === 'custom') {
        await this.validateCustomContent(tenant, current.contentType as string, changes.content);
      }
    }
    let row: ContentItemRow | undefined;
    try {
      row = isUuid(id) ? await repo.updateContentItem(this.db, tenant, id, changes) : undefined;
    } catch (error) {
      if (isSlugConflict(error)) throw slugTaken(changes.slug as string);
      throw error;
    }
    if (!row) throw errors.notFound('Content');
    return toContentItem(row);
  }

  async remove(tenant: TenantContext, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.deleteContentItem(this.db, tenant, id))) throw errors.notFound('Content');
  }

  /** The title's slug, or the next free `-N`: optimistic first, queued on a lock after a lost race. */
  private async insertWithGeneratedSlug(
    tenant: TenantContext,
    item: Omit<NewContentItem, 'slug'>,
  ): Promise<ContentItemRow> {
    const base = slugify(item.title);
    for (let attempt = 1; ; attempt++) {
      try {
        if (attempt === 1) {
          // Usually nobody else is creating this title: two queries, no transaction.
          const slug = nextFreeSlug(base, await repo.slugUsage(this.db, tenant, item.type, base));
          return await repo.insertContentItem(this.db, tenant, { ...item, slug });
        }
        if (attempt > SLUG_ATTEMPTS) {
          return await repo.insertContentItem(this.db, tenant, {
            ...item,
            slug: `${base}-${randomBytes(4).toString('hex')}`,
          });
        }
        return await this.db.transaction(async (trx) => {
          await repo.lockSlugBase(trx, tenant, item.type, base);
          const slug = nextFreeSlug(base, await repo.slugUsage(trx, tenant, item.type, base));
          return repo.insertContentItem(trx, tenant, { ...item, slug });
        });
      } catch (error) {
        // Also reached when an explicit slug written meanwhile took the computed one.
        if (!isSlugConflict(error) || attempt > SLUG_ATTEMPTS) throw error;
      }
    }
  }

  private async find(tenant: TenantContext, id: string): Promise<ContentItemRow> {
    const row = isUuid(id) ? await repo.findContentItem(this.db, tenant, id) : undefined;
    if (!row) throw errors.notFound('Content');
    return row;
  }

  /** A custom item's content is a JSON document that its type's schema accepts. */
  private async validateCustomContent(tenant: TenantContext, contentType: string, content: string): Promise<void> {
    await this.contentTypes.validateContent(tenant, contentType, content);
  }
}
