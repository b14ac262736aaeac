import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';

const identity = Joi.object({
  id: Joi.string().required(),
  provider: Joi.string().required(),
  email: Joi.string().allow(null).required().description('The e-mail the provider gave, as of the last sign-in'),
  emailVerified: Joi.boolean().required(),
  createdAt: Joi.string().isoDate().required(),
  lastSignInAt: Joi.string().isoDate().allow(null).required(),
}).id('Identity');

export const identityListResponse = succeeded(Joi, {
  identities: Joi.array().items(identity).required(),
  hasPassword: Joi.boolean().required(),
}).id('IdentityList');

export const linkStartedResponse = succeeded(Joi, {
  authorizeUrl: Joi.string().required().description("Send the browser here: the provider's sign-in page"),
}).id('LinkStarted');
