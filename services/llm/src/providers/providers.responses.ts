import { Joi } from '@platform/tenancy';
import type { Provider, ProviderTestResult } from './providers.mapper';

const canonicalType = () => Joi.string().valid('openai', 'anthropic').required();

export const providerResponse = Joi.object<{ provider: Provider }>({
  provider: Joi.object<Provider>({
    id: Joi.string().required(),
    providerType: canonicalType(),
    configured: Joi.boolean().required(),
    createdAt: Joi.string().meta({ format: 'date-time' }).required(),
  }).required(),
}).id('Provider');

export const providerTestResponse = Joi.object<ProviderTestResult>({
  success: Joi.boolean().required(),
  message: Joi.string().required(),
  providerType: canonicalType(),
}).id('ProviderTestResult');
