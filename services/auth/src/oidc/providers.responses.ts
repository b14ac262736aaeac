import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';

export const oidcProviderResponse = Joi.object({
  id: Joi.string().required(),
  name: Joi.string().required(),
  issuer: Joi.string().required(),
  clientId: Joi.string().required(),
  hasClientSecret: Joi.boolean().required().description('The secret itself is never returned'),
  scopes: Joi.array().items(Joi.string()).required(),
  acceptUnverifiedEmails: Joi.boolean().required(),
  redirectUri: Joi.string().required().description('Register this as the redirect URI at the provider'),
  createdAt: Joi.string().isoDate().required(),
  updatedAt: Joi.string().isoDate().required(),
}).id('OidcProvider');

export const oidcProviderEnvelope = succeeded(Joi, { provider: oidcProviderResponse.required() }).id(
  'OidcProviderEnvelope',
);
export const oidcProviderList = succeeded(Joi, { providers: Joi.array().items(oidcProviderResponse).required() }).id(
  'OidcProviderList',
);
