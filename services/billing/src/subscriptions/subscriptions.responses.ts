import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { environmentValue, nullableStr, str } from '../shared/responses';
import type { SubscriptionView } from './subscriptions.mapper';

const dateTime = () => nullableStr().meta({ format: 'date-time' });

export const subscriptionSchema = Joi.object<SubscriptionView>({
  id: str().required(),
  tenantId: str().required(),
  projectId: str(),
  environment: environmentValue(),
  planId: nullableStr().required().description('Stripe price id of the first item'),
  status: str().required().description("Stripe's subscription status"),
  currentPeriodEnd: dateTime().required(),
  paySubscriptionId: str().required().description('Stripe subscription id'),
  customerId: str(),
  customerEmail: nullableStr(),
  cancelAtPeriodEnd: Joi.boolean().required(),
  canceledAt: dateTime().required(),
  plan: Joi.object({ id: nullableStr(), name: nullableStr().required() }).required(),
  createdAt: str().meta({ format: 'date-time' }),
  updatedAt: str().meta({ format: 'date-time' }),
}).id('Subscription');

export const subscriptionPageResponse = Joi.object({
  subscriptions: Joi.array().items(subscriptionSchema).required(),
  nextCursor: nullableStr().required().description('Pass as cursor for the next page; null on the last page'),
});

export const currentSubscriptionResponse = succeeded(Joi, {
  subscription: Joi.alternatives(subscriptionSchema, Joi.valid(null)).required(),
});
