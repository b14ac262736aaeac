import { json, type OperationDefinition, KEYS, KEYS_AND_BEARER } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { challengeResponse } from '../mfa/mfa.responses';
import { sessionResponse } from '../sessions/sessions.responses';
import { OIDC_PRESETS } from './presets';
import { identityListResponse, linkStartedResponse } from './oidc.responses';
import { authorizeQuery, callbackQuery, identityIdParams, linkSchema, tokenSchema } from './oidc.schemas';
import { oidcProviderEnvelope, oidcProviderList } from './providers.responses';
import { createProviderSchema, providerNameParams, updateProviderSchema } from './providers.schemas';

const REDIRECT = {
  description: 'Found: the browser goes on to the Location',
  headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
};

const ERROR_CODES =
  "provider_not_found, temporarily_unavailable (the issuer could not be reached in time, or the project has AUTH_OIDC_SLOTS_PER_PROJECT calls to issuers in flight), invalid_state, expired, invalid_request, exchange_failed, invalid_id_token, email_not_verified, identity_already_linked, account_disabled, server_error, or the provider's own (access_denied, ...)";

const signInResult = Joi.alternatives().try(sessionResponse, challengeResponse).id('TokenGrantResult');

/** The contract of sign-in with OpenID Connect providers and of the user's identities. */
export function oidcOperations(
  rateLimited: string,
  bearerOptionalKeys: OperationDefinition['security'],
): OperationDefinition[] {
  return [
    {
      method: 'post',
      path: '/oidc/providers',
      operationId: 'postOidcProviders',
      summary: 'Add an OpenID Connect provider to the project',
      description: `Any standards-compliant issuer: its discovery document (<issuer>/.well-known/openid-configuration) is read at sign-in, through the outbound guard (no private addresses) and within AUTH_OIDC_TIMEOUT_MS. preset fills in the issuer of ${Object.keys(OIDC_PRESETS).join(', ')}. The client secret is stored encrypted and never returned. Register the answer's redirectUri at the provider. 409 CONFLICT when the name is taken.`,
      security: KEYS,
      request: { body: createProviderSchema },
      responses: { 201: json('Added', oidcProviderEnvelope) },
      errors: [400, 401, 409],
    },
    {
      method: 'get',
      path: '/oidc/providers',
      operationId: 'getOidcProviders',
      summary: "The project's OpenID Connect providers",
      security: KEYS,
      responses: { 200: json('Providers', oidcProviderList) },
      errors: [401],
    },
    {
      method: 'get',
      path: '/oidc/providers/{name}',
      operationId: 'getOidcProvidersByName',
      summary: 'One provider',
      security: KEYS,
      request: { params: providerNameParams },
      responses: { 200: json('The provider', oidcProviderEnvelope) },
      errors: [400, 401, 404],
    },
    {
      method: 'patch',
      path: '/oidc/providers/{name}',
      operationId: 'patchOidcProvidersByName',
      summary: 'Change a provider',
      description: 'clientSecret null makes it a public client (PKCE only).',
      security: KEYS,
      request: { params: providerNameParams, body: updateProviderSchema },
      responses: { 200: json('The provider', oidcProviderEnvelope) },
      errors: [400, 401, 404],
    },
    {
      method: 'delete',
      path: '/oidc/providers/{name}',
      operationId: 'deleteOidcProvidersByName',
      summary: 'Remove a provider',
      description: "Its users keep their accounts; the provider's identities stay until unlinked but cannot sign in.",
      security: KEYS,
      request: { params: providerNameParams },
      responses: { 204: { description: 'Removed' } },
      errors: [400, 401, 404],
    },
    {
      method: 'get',
      path: '/authorize',
      operationId: 'getAuthorize',
      summary: 'Sign in with a provider (browser navigation)',
      description: `Open in the browser. The app makes a PKCE verifier of its own and sends its S256 challenge; we redirect to the provider with the authorization code flow, PKCE (S256), state and nonce, and set a cookie that binds the flow to this browser. The provider's callback (GET /callback) ends on redirect_to with ?code=<one-time code> (exchange it at POST /token with the verifier) or ?error=<code>: ${ERROR_CODES}. redirect_to must be exactly one of the project setting allowedRedirectUrls (else 400, no redirect). A new user is created unless the provider's e-mail is that of an existing user: a verified one is linked to that user, an unverified one is refused (email_not_verified). Anonymous users keep their id when they link a provider (POST /me/identities).`,
      security: [],
      request: { query: authorizeQuery },
      responses: { 302: REDIRECT },
      errors: [400, 401, 403, 429],
    },
    {
      method: 'get',
      path: '/callback',
      operationId: 'getCallback',
      summary: "The providers' redirect URI",
      description: `Register <AUTH_PUBLIC_URL>/v1/callback at the provider. Validates the state against the flow of the browser's cookie (single use, 10 minutes), exchanges the code, verifies the ID token (signature by the issuer's JWKS, iss, aud, exp, nonce), then redirects to the app's redirect_to with ?code= or ?error=. 400 only when no flow of this service can be found to name the app's URL.`,
      security: [],
      request: { query: callbackQuery },
      responses: { 302: REDIRECT },
      errors: [400],
    },
    {
      method: 'post',
      path: '/token',
      operationId: 'postToken',
      summary: 'Exchange the one-time code of a provider sign-in for a session',
      description: `The code of the redirect (single use, 5 minutes, only in the project that started the flow) with the app's PKCE verifier. Signs in as POST /login does: the same session, tokens (sid, aal, aud), MFA challenge when the user has a second factor, and trail. A used, expired or unknown code, or a wrong verifier, is 401 INVALID_CREDENTIALS (and uses the code up); a code used a second time also ends the session its first exchange started (its refresh token is refused; session_ended with endedBy reuse_detected, sign_in_failed with reason code_reused). ${rateLimited}`,
      security: KEYS,
      request: { body: tokenSchema },
      responses: { 200: json('Signed in, or an MFA challenge', signInResult) },
      errors: [400, 401, 403, 429],
    },
    {
      method: 'get',
      path: '/me/identities',
      operationId: 'getMeIdentities',
      summary: "The signed-in user's provider identities",
      security: bearerOptionalKeys,
      responses: { 200: json('Identities', identityListResponse) },
      errors: [401],
    },
    {
      method: 'post',
      path: '/me/identities',
      operationId: 'postMeIdentities',
      summary: 'Link another provider to the signed-in user',
      description:
        "Answers with the provider's authorization URL for the browser; the callback links the provider account to this user (identity_already_linked when it is another user's) and ends on redirectTo with a one-time code, as GET /authorize does. 404 for an unknown provider, 503 when its issuer cannot be reached.",
      security: KEYS_AND_BEARER,
      request: { body: linkSchema },
      responses: { 200: json('Go to the provider', linkStartedResponse) },
      errors: [400, 401, 404, 503],
    },
    {
      method: 'delete',
      path: '/me/identities/{id}',
      operationId: 'deleteMeIdentitiesById',
      summary: 'Unlink a provider identity',
      description: '409 CONFLICT when it is the last way to sign in (no password, no other identity, no passkey).',
      security: bearerOptionalKeys,
      request: { params: identityIdParams },
      responses: { 204: { description: 'Unlinked' } },
      errors: [401, 404, 409],
    },
  ];
}
