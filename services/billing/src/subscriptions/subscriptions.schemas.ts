import { Joi } from '@platform/tenancy';
import { environmentSchema, type Environment } from '../shared/environment';

export const subscriptionQuerySchema = Joi.object<{ customerEmail: string; environment: Environment }>({
  customerEmail: Joi.string().trim().email().max(512).required(),
  environment: environmentSchema('test'),
});
