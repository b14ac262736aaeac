import { Joi } from '@platform/tenancy';
import { metadataSchema, type MetadataInput } from '../customers/customers.schemas';
import { urlSchema } from '../shared/urls';

export type CheckoutMode = 'payment' | 'subscription' | 'setup';

export interface CreateCheckoutInput {
  line_items: { price: string; quantity: number }[];
  mode: CheckoutMode;
  success_url: string;
  cancel_url: string;
  customer_email?: string;
  metadata?: MetadataInput;
  allow_promotion_codes?: boolean;
  billing_address_collection?: 'auto' | 'required';
}

export const createCheckoutSchema = Joi.object<CreateCheckoutInput>({
  line_items: Joi.array()
    .items(
      Joi.object({
        price: Joi.string().trim().min(1).max(255).required().description('Stripe price id'),
        quantity: Joi.number().integer().strict().min(1).max(1_000_000).required(),
      }).id('LineItem'),
    )
    .min(1)
    .max(100)
    .required(),
  mode: Joi.string().valid('payment', 'subscription', 'setup').required(),
  success_url: urlSchema().required(),
  cancel_url: urlSchema().required(),
  customer_email: Joi.string()
    .trim()
    .email()
    .max(512)
    .description(
      "Email of the Stripe customer created for the signed-in user on first use; defaults to the user's email",
    ),
  metadata: metadataSchema(),
  allow_promotion_codes: Joi.boolean(),
  billing_address_collection: Joi.string().valid('auto', 'required'),
}).id('CheckoutSessionInput');

export const sessionIdSchema = Joi.string()
  .trim()
  .min(1)
  .max(255)
  .pattern(/^[A-Za-z0-9_]+$/, 'Stripe id');
