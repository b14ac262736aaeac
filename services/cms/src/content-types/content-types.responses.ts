import { Joi } from '@platform/tenancy';
import { timestamp } from '../shared/responses';
import type { ContentType, ContentTypeSummary } from './content-types.mapper';

const summaryKeys = {
  id: Joi.string().guid().required(),
  name: Joi.string().required(),
  description: Joi.string().allow(null, '').required(),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
};

export const contentTypeSummaryResponse = Joi.object<ContentTypeSummary>(summaryKeys).id('ContentTypeSummary');

export const contentTypeResponse = Joi.object<ContentType>({
  ...summaryKeys,
  schema: Joi.object()
    .unknown(true)
    .required()
    .description('A JSON Schema (draft-07 by default; 2019-09 and 2020-12 by $schema).'),
}).id('ContentType');
