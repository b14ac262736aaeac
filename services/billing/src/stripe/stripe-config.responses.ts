import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { environmentValue, nullableStr, str } from '../shared/responses';
import type { StripeConfigStatus } from './stripe-config.mapper';

const statusKeys = {
  environment: environmentValue().required(),
  configured: Joi.boolean().required().description('A secret key is stored for this environment'),
  webhookConfigured: Joi.boolean().required().description('A webhook signing secret is stored for this environment'),
  webhookPath: str().required().description('Path (on this service) to register as the Stripe webhook endpoint'),
  updatedAt: nullableStr().required().meta({ format: 'date-time' }),
};

export const stripeConfigStatus = Joi.object<StripeConfigStatus>(statusKeys).id('StripeConfigStatus');

export const stripeConfigResponse = succeeded(Joi, {
  ...statusKeys,
  environments: Joi.array().items(stripeConfigStatus),
}).id('StripeConfig');
