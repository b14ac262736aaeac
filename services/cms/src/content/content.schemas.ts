import { Joi, pageSchema, type Page } from '@platform/tenancy';
import type { ContentChanges, ContentFilters, ContentKind, ContentStatus } from './content.repository';
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
}

export type UpdateContentInput = ContentChanges;

export type ListContentQuery = ContentFilters & Page;

const slug = Joi.string()
  .max(SLUG_MAX_LENGTH)
  .pattern(SLUG_PATTERN)
  .messages({ 'string.pattern.base': 'slug must be lowercase ASCII letters and digits separated by single hyphens' });
const title = Joi.string().trim().min(1).max(500);
const content = Joi.string().allow('');
const metadata = Joi.object().unknown(true);
const status = Joi.string().valid(...CONTENT_STATUSES);

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
});

export const updateContentSchema = Joi.object<UpdateContentInput>({ title, content, metadata, status, slug });

export const listContentQuerySchema = Joi.object<ListContentQuery>({
  type: Joi.string().valid(...CONTENT_KINDS),
  status,
  slug: Joi.string().max(SLUG_MAX_LENGTH),
  ...pageSchema(20),
});
