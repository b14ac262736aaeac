import { Joi } from '@platform/tenancy';
import { customerIdSchema, metadataSchema, type MetadataInput } from '../customers/customers.schemas';

export interface CreatePaymentIntentInput {
  amount: number;
  currency: string;
  customer?: string;
  description?: string;
  metadata?: MetadataInput;
  payment_method_types?: string[];
  receipt_email?: string;
  setup_future_usage?: 'on_session' | 'off_session';
}

export const createPaymentIntentSchema = Joi.object<CreatePaymentIntentInput>({
  // In the smallest currency unit, so a whole number; Stripe's ceiling is 99,999,999.
  amount: Joi.number()
    .integer()
    .strict()
    .min(1)
    .max(99_999_999)
    .required()
    .description('In the smallest currency unit'),
  currency: Joi.string()
    .pattern(/^[a-z]{3}$/, 'three lowercase letters')
    .required()
    .messages({ 'string.pattern.name': 'currency must be three lowercase letters (ISO 4217), e.g. usd' }),
  customer: customerIdSchema.description("The signed-in user's own customer (404 for any other); the default"),
  description: Joi.string().max(1000),
  metadata: metadataSchema(),
  payment_method_types: Joi.array()
    .items(
      Joi.string()
        .trim()
        .pattern(/^[a-z_]+$/)
        .max(64),
    )
    .min(1)
    .max(20),
  receipt_email: Joi.string().trim().email().max(512),
  setup_future_usage: Joi.string().valid('on_session', 'off_session'),
}).id('PaymentIntentInput');

export const paymentIntentIdSchema = Joi.string()
  .trim()
  .min(1)
  .max(255)
  .pattern(/^[A-Za-z0-9_]+$/, 'Stripe id');
