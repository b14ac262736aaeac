import { Joi } from '@platform/tenancy';
import type { Environment } from '../shared/environment';

export interface PutStripeConfigInput {
  environment?: Environment;
  secretKey: string;
  webhookSecret?: string;
}

const secret = () => Joi.string().trim().min(8).max(500).pattern(/^\S+$/, 'no whitespace');

export const putStripeConfigSchema = Joi.object<PutStripeConfigInput>({
  environment: Joi.string().valid('test', 'live'),
  secretKey: secret().required(),
  webhookSecret: secret(),
});
