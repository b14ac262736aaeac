import { Joi } from '@platform/tenancy';
import type { Provider, ProviderTestResult } from './providers.mapper';

const canonicalType = () => Joi.string().valid('openai', 'anthropic').required();

const providerSchema = Joi.object<Provider>({
  id: Joi.string().required(),
  providerType: canonicalType(),
  configured: Joi.boolean().required(),
  createdAt: Joi.string().meta({ format: 'date-time' }).required(),
});

export const providerResponse = Joi.object<{ provider: Provider }>({
  provider: providerSchema.required(),
}).id('Provider');

export const providerListResponse = Joi.object<{ providers: Provider[] }>({
  providers: Joi.array().items(providerSchema).required(),
});

export const providerTestResponse = Joi.object<ProviderTestResult>({
  success: Joi.boolean().required(),
  message: Joi.string().required(),
  providerType: canonicalType(),
}).id('ProviderTestResult');
