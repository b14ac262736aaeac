import { Joi } from '@platform/tenancy';
import { contentEvents, timestamp } from '../shared/responses';
import type { Webhook, WebhookAttempt, WebhookDelivery } from './webhooks.mapper';

export const webhookResponse = Joi.object<Webhook>({
  id: Joi.string().guid().required(),
  url: Joi.string().uri().required(),
  events: Joi.array().items(contentEvents()).required(),
  createdAt: timestamp().required(),
}).id('Webhook');

export const webhookAttemptResponse = Joi.object<WebhookAttempt>({
  attempt: Joi.number().integer().min(1).required(),
  outcome: Joi.string()
    .valid('delivered', 'failed', 'refused')
    .required()
    .description('refused: the URL resolves to a private address, or the project has no webhook secret.'),
  statusCode: Joi.number().integer().allow(null).required(),
  error: Joi.string().allow(null, '').required(),
  durationMs: Joi.number().integer().required(),
  createdAt: timestamp().required(),
}).id('WebhookAttempt');

export const webhookDeliveryResponse = Joi.object<WebhookDelivery>({
  id: Joi.string().guid().required().description('Sent as X-Webhook-Id on every attempt.'),
  webhookId: Joi.string().guid().required(),
  event: contentEvents().required(),
  status: Joi.string()
    .valid('pending', 'delivered', 'failed', 'refused')
    .required()
    .description('pending: an attempt is due or running; failed: every retry failed.'),
  attemptCount: Joi.number().integer().required(),
  payload: Joi.object()
    .unknown(true)
    .required()
    .description('The JSON body sent (and signed): {id, event, occurredAt, data}.'),
  attempts: Joi.array().items(webhookAttemptResponse).required(),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
}).id('WebhookDelivery');
