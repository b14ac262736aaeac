import { Joi } from '@platform/tenancy';
import { str } from '../shared/responses';
import type { WebhookReceived } from './webhooks.mapper';

export const webhookReceivedResponse = Joi.object<WebhookReceived>({
  received: Joi.valid(true).required(),
  duplicate: Joi.boolean().required().description('The event id was processed before; nothing changed'),
  id: str(),
  type: str(),
}).id('WebhookReceived');
