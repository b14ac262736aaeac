import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { nullableStr, str } from '../shared/responses';

export const checkoutCreatedResponse = succeeded(Joi, {
  session: Joi.object({
    id: str().required(),
    url: nullableStr().required(),
    customer: str().required(),
    mode: Joi.string().valid('payment', 'subscription', 'setup').required(),
  }).required(),
}).id('CheckoutSessionCreated');

export const checkoutStatusResponse = succeeded(Joi, {
  session: Joi.object({
    id: str().required(),
    status: nullableStr().required().description('open, complete or expired'),
    payment_status: str().required().description('paid, unpaid or no_payment_required'),
    mode: str(),
    customer: nullableStr(),
    url: nullableStr(),
  }).required(),
}).id('CheckoutSessionStatus');
