import { Joi } from '@platform/tenancy';

export const webhookResultResponse = Joi.object({
  received: Joi.valid(true).required(),
  updated: Joi.number().integer().min(0).required().description('How many logs changed status'),
}).id('WebhookResult');
