import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { nullableStr, str } from '../shared/responses';

export const paymentIntentCreatedResponse = succeeded(Joi, {
  paymentIntent: Joi.object({
    id: str().required(),
    client_secret: nullableStr().required(),
    status: str().required(),
    amount: Joi.number().integer().required(),
    currency: str().required(),
    customer: str(),
  }).required(),
  client_secret: nullableStr().required(),
  payment_intent_id: str().required(),
  status: str().required(),
}).id('PaymentIntentCreated');

export const paymentIntentStatusResponse = succeeded(Joi, {
  paymentIntent: Joi.object({
    id: str().required(),
    status: str().required(),
    amount: Joi.number().integer().required(),
    currency: str().required(),
  }).required(),
}).id('PaymentIntentStatus');
