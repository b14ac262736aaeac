import { Joi } from '@platform/tenancy';
import type { Suppression } from './suppressions.mapper';
import { SUPPRESSION_REASONS } from './suppressions.model';

export const suppressionResponse = Joi.object<Suppression>({
  email: Joi.string().required().description('Lowercased; addresses compare case-insensitively'),
  scope: Joi.string()
    .valid('all', 'marketing')
    .required()
    .description('all: no email at all; marketing: only emails sent with category marketing are held back'),
  reason: Joi.string()
    .valid(...SUPPRESSION_REASONS)
    .required(),
  providerEvent: Joi.string()
    .allow(null)
    .required()
    .description('The vendor event that added it, e.g. mailgun:complained or sendgrid:bounce'),
  providerId: Joi.string().allow(null).required(),
  createdAt: Joi.string().meta({ format: 'date-time' }).required(),
}).id('Suppression');

export const suppressionListResponse = Joi.object({
  suppressions: Joi.array().items(suppressionResponse).required(),
  total: Joi.number().integer().required(),
  limit: Joi.number().integer().required(),
  offset: Joi.number().integer().required(),
}).id('SuppressionList');
