import { Joi } from '@platform/tenancy';

const providerName = Joi.string().max(40).description('The name the project gave the provider');
const codeChallenge = Joi.string()
  .pattern(/^[A-Za-z0-9_-]{43}$/)
  .description("BASE64URL(SHA-256(code_verifier)) of the app's own PKCE verifier (S256)");
const redirectTo = Joi.string()
  .max(2048)
  .description("Where the browser goes back to: exactly one of the project's allowedRedirectUrls");

export interface AuthorizeQuery {
  api_key: string;
  provider: string;
  redirect_to: string;
  code_challenge: string;
  code_challenge_method?: 'S256';
}

/** A browser navigation: the project's public key travels in the query (it is not a secret). */
export const authorizeQuery = Joi.object<AuthorizeQuery>({
  api_key: Joi.string().max(200).required().description("The project's public API key"),
  provider: providerName.required(),
  redirect_to: redirectTo.required(),
  code_challenge: codeChallenge.required(),
  code_challenge_method: Joi.string().valid('S256'),
});

/** What the provider sends back (RFC 6749 4.1.2, RFC 9207); anything else is ignored. */
export const callbackQuery = Joi.object({
  state: Joi.string().max(512),
  code: Joi.string().max(4096),
  error: Joi.string().max(256),
  error_description: Joi.string().max(2048),
  error_uri: Joi.string().max(2048),
  iss: Joi.string().max(2048),
}).unknown(true);

export interface TokenInput {
  grantType?: 'authorization_code';
  code: string;
  codeVerifier: string;
}

export const tokenSchema = Joi.object<TokenInput>({
  grantType: Joi.string().valid('authorization_code'),
  code: Joi.string().max(512).required().description('The code of the redirect'),
  codeVerifier: Joi.string()
    .pattern(/^[A-Za-z0-9._~-]{43,128}$/)
    .required()
    .description("The app's PKCE verifier (RFC 7636)"),
});

export interface LinkInput {
  provider: string;
  redirectTo: string;
  codeChallenge: string;
}

export const linkSchema = Joi.object<LinkInput>({
  provider: providerName.required(),
  redirectTo: redirectTo.required(),
  codeChallenge: codeChallenge.required(),
});

export const identityIdParams = Joi.object<{ id: string }>({ id: Joi.string().max(64).required() });
