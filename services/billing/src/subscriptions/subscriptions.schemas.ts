import { Joi } from '@platform/tenancy';
import { environmentSchema, type Environment } from '../shared/environment';

export interface ListSubscriptionsInput {
  environment: Environment;
  status?: string;
  customerEmail?: string;
  cursor?: string;
  limit: number;
}

export const listSubscriptionsSchema = Joi.object<ListSubscriptionsInput>({
  environment: environmentSchema('test'),
  status: Joi.string()
    .valid('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused')
    .description('Only subscriptions in this Stripe status'),
  customerEmail: Joi.string().trim().email().max(512).description('Only subscriptions of this customer email'),
  cursor: Joi.string().max(512).description('nextCursor of the previous page; absent for the first page'),
  limit: Joi.number().integer().min(1).max(100).default(20).description('Page size, at most 100'),
});

export const subscriptionQuerySchema = Joi.object<{ customerEmail: string; environment: Environment }>({
  customerEmail: Joi.string().trim().email().max(512).required(),
  environment: environmentSchema('test'),
});
