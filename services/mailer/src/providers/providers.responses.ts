import { Joi } from '@platform/tenancy';
import type { Provider } from './providers.mapper';

export const providerResponse = Joi.object<Provider>({
  id: Joi.string().required(),
  name: Joi.string().required(),
  type: Joi.string().valid('mailgun', 'sendgrid').required(),
  isDefault: Joi.boolean().required(),
  priority: Joi.number().integer().required().description('Failover order: lower first'),
  createdAt: Joi.string().meta({ format: 'date-time' }).required(),
}).id('Provider');

export const providerListResponse = Joi.object({ providers: Joi.array().items(providerResponse).required() });

export const providerTestResponse = Joi.object({
  success: Joi.boolean().required(),
  messageId: Joi.string().allow(null).required(),
  message: Joi.string().required(),
}).id('ProviderTest');
