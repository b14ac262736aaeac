import { Joi } from '@platform/tenancy';
import { kinds, scheduled, slugResponse, statuses, timestamp } from '../shared/responses';
import type { ContentItem, ContentSummary } from './content.mapper';

export const contentItemResponse = Joi.object<ContentItem>({
  id: Joi.string().guid().required(),
  tenantId: Joi.string().required(),
  projectId: Joi.string().required(),
  type: kinds().required(),
  title: Joi.string().required(),
  slug: slugResponse().required(),
  content: Joi.string().allow('').required().description('For custom items, a JSON document as a string.'),
  status: statuses().required(),
  metadata: Joi.object().unknown(true).required(),
  contentType: Joi.string()
    .allow(null)
    .required()
    .description('Name of the content type of a custom item; null otherwise.'),
  revision: Joi.number()
    .integer()
    .required()
    .description('Number of the latest revision (0 for items older than revisions).'),
  publishAt: scheduled('When the item becomes published (in the draft view: when the draft does).').required(),
  unpublishAt: scheduled('When the item stops being published (its status becomes draft).').required(),
  hasDraft: Joi.boolean().required().description('A published item has a pending draft (GET ?version=draft).'),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
}).id('ContentItem');

export const contentSummaryResponse = Joi.object<ContentSummary>({
  id: Joi.string().required(),
  type: kinds().required(),
  title: Joi.string().required(),
  slug: slugResponse().required(),
  status: statuses().required(),
  publishAt: scheduled('When the item becomes published.').required(),
  unpublishAt: scheduled('When the item stops being published.').required(),
  createdAt: timestamp().required(),
}).id('ContentSummary');
