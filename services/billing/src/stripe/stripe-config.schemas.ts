import { Joi } from '@platform/tenancy';
import type { Environment } from '../shared/environment';

export interface PutStripeConfigInput {
  environment?: Environment;
  secretKey: string;
  webhookSecret?: string;
}

const secret = () => Joi.string().trim().min(8).max(500).pattern(/^\S+$/, 'no whitespace');

export const putStripeConfigSchema = Joi.object<PutStripeConfigInput>({
  environment: Joi.string()
    .valid('test', 'live')
    .description('Defaults to the `environment` query parameter, then `test`'),
  secretKey: secret().required().description('Stripe secret (or restricted) key; stored encrypted, never returned'),
  webhookSecret: secret().description(
    'Stripe webhook signing secret (whsec_...); when left out, the stored one is kept',
  ),
}).id('StripeConfigInput');
