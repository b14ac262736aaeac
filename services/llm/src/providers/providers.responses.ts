import { Joi } from '@platform/tenancy';
import type { ProviderView } from './providers.mapper';
import type { testProvider } from './providers.service';

const canonicalType = () => Joi.string().valid('openai', 'anthropic').required();

export const providerResponse = Joi.object<{ provider: ProviderView }>({
  provider: Joi.object<ProviderView>({
    id: Joi.string().required(),
    providerType: canonicalType(),
    configured: Joi.boolean().required(),
    createdAt: Joi.string().meta({ format: 'date-time' }).required(),
  }).required(),
}).id('Provider');

export const providerTestResponse = Joi.object<Awaited<ReturnType<typeof testProvider>>>({
  success: Joi.boolean().required(),
  message: Joi.string().required(),
  providerType: canonicalType(),
}).id('ProviderTestResult');
