import { Joi } from '@platform/tenancy';
import { slugResponse, statuses, timestamp } from '../shared/responses';
import type { Revision } from './revisions.mapper';

export const revisionResponse = Joi.object<Revision>({
  contentId: Joi.string().guid().required(),
  number: Joi.number().integer().min(1).required(),
  change: Joi.string().valid('created', 'updated', 'published', 'unpublished', 'restored').required(),
  title: Joi.string().required(),
  slug: slugResponse().required(),
  content: Joi.string().allow('').required(),
  status: statuses().required(),
  metadata: Joi.object().unknown(true).required(),
  createdAt: timestamp().required(),
}).id('Revision');
