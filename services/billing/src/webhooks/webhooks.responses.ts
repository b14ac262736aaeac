import { Joi } from '@platform/tenancy';
import { str } from '../shared/responses';

export const webhookReceivedResponse = Joi.object({
  received: Joi.valid(true).required(),
  duplicate: Joi.boolean().required().description('The event id was processed before; nothing changed'),
  id: str(),
  type: str(),
}).id('WebhookReceived');
