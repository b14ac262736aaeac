import { Joi, webUrl } from '@platform/tenancy';
import { OIDC_PRESETS } from './presets';

const name = Joi.string()
  .pattern(/^[a-z0-9][a-z0-9_-]{0,39}$/)
  .description('How the app names the provider in GET /authorize?provider=... (lowercase letters, digits, - and _)');
const issuer = webUrl().description(
  'The issuer identifier: its /.well-known/openid-configuration is read, and must name this very issuer',
);
const scopes = Joi.array()
  .items(Joi.string().pattern(/^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/))
  .max(20)
  .description('Requested scopes; openid is always added (default: openid email profile)');
const clientSecret = Joi.string()
  .max(1024)
  .allow(null)
  .description('Stored encrypted and never returned; null for a public client');
const acceptUnverifiedEmails = Joi.boolean().description(
  'Create accounts for e-mails the provider does not say are verified (default false). Such an e-mail is never linked to an existing account',
);

export interface ProviderInput {
  name: string;
  preset?: keyof typeof OIDC_PRESETS;
  issuer?: string;
  clientId: string;
  clientSecret?: string | null;
  scopes?: string[];
  acceptUnverifiedEmails?: boolean;
}

export const createProviderSchema = Joi.object<ProviderInput>({
  name: name.required(),
  preset: Joi.string()
    .valid(...Object.keys(OIDC_PRESETS))
    .description('Fills in the issuer of a well-known provider'),
  issuer,
  clientId: Joi.string().max(512).required(),
  clientSecret,
  scopes,
  acceptUnverifiedEmails,
}).or('preset', 'issuer');

export type ProviderChanges = Partial<Omit<ProviderInput, 'name' | 'preset'>>;

export const updateProviderSchema = Joi.object<ProviderChanges>({
  issuer,
  clientId: Joi.string().max(512),
  clientSecret,
  scopes,
  acceptUnverifiedEmails,
}).min(1);

export const providerNameParams = Joi.object<{ name: string }>({ name: name.required() });
