import { Joi, pageSchema, type Page } from '@platform/tenancy';
import type { ContentChanges, ContentFilters, ContentKind, ContentStatus } from './content.model';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from './slug';

export const CONTENT_KINDS: ContentKind[] = ['blog', 'faq', 'page', 'custom'];
export const CONTENT_STATUSES: ContentStatus[] = ['draft', 'published', 'archived'];

export interface CreateContentInput {
  type: ContentKind;
  title: string;
  content: string;
  slug?: string;
  metadata: Record<string, unknown>;
  status: ContentStatus;
  contentType?: string;
  publishAt?: Date | null;
  unpublishAt?: Date | null;
}

export type UpdateContentInput = Pick<ContentChanges, 'title' | 'content' | 'metadata' | 'status' | 'slug'> & {
  publishAt?: Date | null;
  unpublishAt?: Date | null;
};

export type ListContentQuery = ContentFilters & Page & { q?: string };

export interface GetContentQuery {
  version: 'live' | 'draft';
}

export interface UpdateContentQuery {
  draft: boolean;
}

const slug = Joi.string()
  .max(SLUG_MAX_LENGTH)
  .pattern(SLUG_PATTERN)
  .messages({ 'string.pattern.base': 'slug must be lowercase ASCII letters and digits separated by single hyphens' });
const title = Joi.string().trim().min(1).max(500);
const content = Joi.string().allow('');
const metadata = Joi.object().unknown(true);
const status = Joi.string().valid(...CONTENT_STATUSES);
// A schedule is a moment still to come; null clears it.
const scheduledAt = Joi.date()
  .iso()
  .greater('now')
  .allow(null)
  .messages({ 'date.greater': '{#label} must be in the future', 'date.format': '{#label} must be an ISO 8601 time' });
const schedule = {
  publishAt: scheduledAt,
  unpublishAt: scheduledAt.when('publishAt', {
    is: Joi.date().required(),
    then: Joi.date().greater(Joi.ref('publishAt')).messages({ 'date.greater': 'unpublishAt must be after publishAt' }),
    otherwise: Joi.any(),
  }),
};

export const createContentSchema = Joi.object<CreateContentInput>({
  type: Joi.string()
    .valid(...CONTENT_KINDS)
    .required(),
  title: title.required(),
  content: content.required(),
  slug,
  metadata: metadata.default({}),
  status: status.default('draft'),
  contentType: Joi.string()
    .trim()
    .min(1)
    .max(100)
    .when('type', {
      is: 'custom',
      then: Joi.required(),
      otherwise: Joi.forbidden().messages({ 'any.unknown': 'contentType is only allowed when type is custom' }),
    }),
  ...schedule,
});

export const updateContentSchema = Joi.object<UpdateContentInput>({
  title,
  content,
  metadata,
  status,
  slug,
  ...schedule,
});

export const updateContentQuerySchema = Joi.object<UpdateContentQuery>({ draft: Joi.boolean().default(false) });

export const getContentQuerySchema = Joi.object<GetContentQuery>({
  version: Joi.string().valid('live', 'draft').default('live'),
});

export const listContentQuerySchema = Joi.object<ListContentQuery>({
  type: Joi.string().valid(...CONTENT_KINDS),
  status,
  slug: Joi.string().max(SLUG_MAX_LENGTH),
  q: Joi.string().trim().min(1).max(500),
  ...pageSchema(20),
});
