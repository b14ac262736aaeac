import { Joi } from '@platform/tenancy';

export const unsubscribedResponse = Joi.object({
  unsubscribed: Joi.valid(true).required(),
  email: Joi.string().required(),
}).id('Unsubscribed');
