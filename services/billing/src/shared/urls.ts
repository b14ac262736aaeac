import { Joi } from '@platform/tenancy';

/** An absolute http(s) URL, as Stripe needs for its redirects. */
export const urlSchema = () =>
  Joi.string()
    .trim()
    .uri({ scheme: ['http', 'https'] })
    .max(2048);
