/** The Authentication service's contract: every operation, its request schemas (the routes' own) and responses. */
import { buildContractDocument, json, type OperationDefinition } from '@platform/contract';
import { BEARER, KEYS, KEYS_AND_BEARER } from '@platform/tenancy';
import { jwksResponse } from './jwks/jwks.responses';
import { emailOnlySchema, resetPasswordSchema } from './passwords/passwords.schemas';
import { registerHeaders, registerSchema } from './registration/registration.schemas';
import { sessionResponse } from './sessions/sessions.responses';
import { loginSchema, refreshSchema } from './sessions/sessions.schemas';
import { messageResponse } from './shared/responses';
import { managedUserEnvelopeResponse, userPageResponse } from './user-admin/user-admin.responses';
import { listUsersSchema, userIdParams } from './user-admin/user-admin.schemas';
import { userEnvelopeResponse, userLookupEnvelopeResponse } from './users/users.responses';
import { deleteMetadataSchema, lookupSchema, updateMeSchema } from './users/users.schemas';
import { verifyEmailSchema } from './verification/verification.schemas';

const RATE_LIMITED =
  "Limited per client address and project, and per email and project (AUTH_RATE_LIMIT_PER_IP / AUTH_RATE_LIMIT_PER_EMAIL per AUTH_RATE_LIMIT_WINDOW_MS, by default 300 and 10 per 15 minutes, each endpoint counted apart): 429 RATE_LIMITED with Retry-After. One project's requests never use up another project's allowance. The client address is the one the trusted proxies (TRUST_PROXY) vouch for; an IPv4 client is its IPv4 address, an IPv6 client its /64.";
const OPTIONAL_KEYS =
  'Key headers are optional here; when sent, they must be valid and name the project the credential belongs to.';
/** `/me` takes the bearer alone, or with key headers of the same project. */
const BEARER_OPTIONAL_KEYS = [...BEARER, ...KEYS_AND_BEARER];

const operations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/register',
    operationId: 'postRegister',
    summary: 'Register with email and password',
    description: `Creates the user and a first session. Writes auth.user.registered to the outbox; when the project setting requireEmailVerification is true it carries a verification link (24 h). The user's locale (metadata.locale, a BCP 47 tag) picks the locale variant of the project's auth email templates in the Mailer; when metadata has no locale, the most preferred tag of Accept-Language is stored as metadata.locale. ${RATE_LIMITED}`,
    security: KEYS,
    request: { headers: registerHeaders, body: registerSchema },
    responses: { 201: json('Registered', sessionResponse) },
    errors: [400, 401, 409, 429],
  },
  {
    method: 'post',
    path: '/login',
    operationId: 'postLogin',
    summary: 'Log in with email and password',
    description: `Unknown email and wrong password both give 401 INVALID_CREDENTIALS in about the same time. 5 consecutive failures lock the email for 15 minutes, whether or not it has an account (423 ACCOUNT_LOCKED with Retry-After, even for the right password). Success resets the count and sets lastLogin. An unverified email does not block login (the app reads user.emailVerified). The right password of a disabled user (POST /users/{user_id}/disable) is 403 FORBIDDEN. ${RATE_LIMITED}`,
    security: KEYS,
    request: { body: loginSchema },
    responses: { 200: json('Logged in', sessionResponse) },
    errors: [400, 401, 403, 423, 429],
  },
  {
    method: 'post',
    path: '/refresh-token',
    operationId: 'postRefreshToken',
    summary: 'Exchange a refresh token for a new pair',
    description:
      'Rotates: the presented token dies and a new one is returned. A token that was already rotated, revoked (logout, password reset, disabling the user), or expired, or one of a disabled user, is 401 INVALID_SESSION; presenting an already-rotated one also revokes every token of that login.',
    security: KEYS,
    request: { body: refreshSchema },
    responses: { 200: json('New tokens', sessionResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/logout',
    operationId: 'postLogout',
    summary: 'End every session of the user',
    description:
      "Increments the user's token version: every refresh token of the user stops working. Access tokens stay valid until they expire (15 minutes). An unknown refresh token also gets 200.",
    security: KEYS,
    request: { body: refreshSchema },
    responses: { 200: json('Logged out', messageResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/forgot-password',
    operationId: 'postForgotPassword',
    summary: 'Ask for a password reset email',
    description: `Same answer whether or not the account exists, and in the same time: every answer waits at least AUTH_FORGOT_PASSWORD_MIN_MS (500 ms by default). For an existing account, writes auth.password-reset.requested with a link <appUrl>/reset-password?token=... valid 1 hour; earlier reset links stop working. ${RATE_LIMITED}`,
    security: KEYS,
    request: { body: emailOnlySchema },
    responses: { 200: json('Accepted', messageResponse) },
    errors: [400, 401, 429],
  },
  {
    method: 'post',
    path: '/reset-password',
    operationId: 'postResetPassword',
    summary: 'Set a new password with a reset token',
    description:
      'The token is single use. Unknown or used: 400 VALIDATION_ERROR; older than 1 hour: 410 TOKEN_EXPIRED. Success ends every session of the user and lifts a lockout.',
    security: KEYS,
    request: { body: resetPasswordSchema },
    responses: { 200: json('Password changed', messageResponse) },
    errors: [400, 401, 410],
  },
  {
    method: 'post',
    path: '/verify-email',
    operationId: 'postVerifyEmail',
    summary: 'Confirm an email address with a verification token',
    description: `The token (from the link in the email, valid 24 hours, single use) identifies the user. Unknown, used or expired: 400 VALIDATION_ERROR. A public route: its body may be at most 4 KB (413 PAYLOAD_TOO_LARGE beyond). ${OPTIONAL_KEYS}`,
    security: [{}, ...KEYS],
    request: { body: verifyEmailSchema },
    responses: { 200: json('Verified', messageResponse) },
    errors: [400, 401, 413],
  },
  {
    method: 'post',
    path: '/resend-verification',
    operationId: 'postResendVerification',
    summary: 'Send a new verification email',
    description: `Writes auth.verification.requested with a new link (24 h); earlier links stop working. 400 when the email is unknown or already verified. ${RATE_LIMITED}`,
    security: KEYS,
    request: { body: emailOnlySchema },
    responses: { 200: json('Sent', messageResponse) },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/me',
    operationId: 'getMe',
    summary: 'The signed-in user',
    description: `Bearer access token alone. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    responses: { 200: json('The user', userEnvelopeResponse) },
    errors: [401],
  },
  {
    method: 'patch',
    path: '/me',
    operationId: 'patchMe',
    summary: 'Update the profile',
    description: `Only fields sent change. metadata is merged shallowly: top-level keys sent are added or replaced, others are kept. null clears phoneNumber, avatarUrl or username. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { body: updateMeSchema },
    responses: { 200: json('The user', userEnvelopeResponse) },
    errors: [400, 401],
  },
  {
    method: 'delete',
    path: '/me',
    operationId: 'deleteMe',
    summary: 'Remove metadata keys',
    description: `Each top-level key named in metadata is removed (send null as its value; values are ignored). An empty metadata object, or an empty body, removes all metadata. The account itself is not deleted. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { body: deleteMetadataSchema, bodyRequired: false },
    responses: { 200: json('The user', userEnvelopeResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/users/by-email',
    operationId: 'getUsersByEmail',
    summary: 'Look up a user of the project by email',
    security: KEYS,
    request: { query: lookupSchema },
    responses: { 200: json('The user', userLookupEnvelopeResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/users',
    operationId: 'getUsers',
    summary: "List the project's users",
    description:
      'In email order (byte order), optionally only emails starting with `email` (case-insensitive). Cursor pagination: pass the nextCursor of a page as cursor for the next; null on the last page. Also accepts a console member token (docs/control-plane-contract.md).',
    security: KEYS,
    request: { query: listUsersSchema },
    responses: { 200: json('A page of users', userPageResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/users/{user_id}',
    operationId: 'getUser',
    summary: 'One user of the project',
    security: KEYS,
    request: { params: userIdParams },
    responses: { 200: json('The user', managedUserEnvelopeResponse) },
    errors: [401, 404],
  },
  {
    method: 'delete',
    path: '/users/{user_id}',
    operationId: 'deleteUser',
    summary: 'Delete a user',
    description:
      'Permanent: the user and their sessions and pending links are removed. Access tokens already issued live until they expire (15 minutes).',
    security: KEYS,
    request: { params: userIdParams },
    responses: { 204: { description: 'Deleted' } },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/users/{user_id}/disable',
    operationId: 'postUserDisable',
    summary: 'Disable a user',
    description:
      'A disabled user cannot log in (403 FORBIDDEN) or refresh (401 INVALID_SESSION); every refresh token dies at once, access tokens live until they expire (15 minutes). Disabling again keeps the first disabledAt.',
    security: KEYS,
    request: { params: userIdParams },
    responses: { 200: json('The user', managedUserEnvelopeResponse) },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/users/{user_id}/enable',
    operationId: 'postUserEnable',
    summary: 'Enable a disabled user',
    description: 'The user may log in again; sessions ended by the disabling stay ended.',
    security: KEYS,
    request: { params: userIdParams },
    responses: { 200: json('The user', managedUserEnvelopeResponse) },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/users/{user_id}/resend-verification',
    operationId: 'postUserResendVerification',
    summary: 'Send a new verification email to a user',
    description:
      'Writes auth.verification.requested with a new link (24 h); earlier links stop working. 400 when the email is already verified.',
    security: KEYS,
    request: { params: userIdParams },
    responses: { 200: json('Sent', messageResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'getWellKnownJwksJson',
    summary: 'Public key that verifies access tokens',
    security: [],
    responses: { 200: json('JSON Web Key Set', jwksResponse) },
  },
];

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds until the next attempt may succeed', schema: { type: 'integer' } },
};

type Responses = Record<string, Record<string, unknown>>;

/**
 * The 423 (lockout) and 429 (rate limits) an operation lists say when to try again; the contract
 * has no response headers of its own, so they are added to the generated document.
 */
function withRetryAfter(document: Record<string, unknown>): Record<string, unknown> {
  const paths = document.paths as Record<string, Record<string, { responses: Responses }>>;
  for (const op of operations)
    for (const status of op.errors ?? [])
      if (status === 423 || status === 429) {
        const responses = paths[op.path][op.method].responses;
        responses[status] = { ...responses[status], headers: RETRY_AFTER };
      }
  return document;
}

export const openapi = withRetryAfter(
  buildContractDocument({
    title: 'Authentication service',
    description:
      'Registration and login with email and password, token refresh and rotation, logout, password reset, email verification, profile and metadata, lookup by email. All paths start with /v1. Errors: {success: false, error: {code, message, details?}} with codes VALIDATION_ERROR 400, UNAUTHORIZED 401 (keys), INVALID_CREDENTIALS 401, INVALID_SESSION 401 (bearer or refresh token), FORBIDDEN 403 (disabled user), NOT_FOUND 404, USER_ALREADY_EXISTS 409, TOKEN_EXPIRED 410, ACCOUNT_LOCKED 423, RATE_LIMITED 429.',
    operations,
    tags: [
      {
        name: 'registration',
        description: 'Sign-up, e-mail verification and password reset',
        paths: ['/register', '/verify-email', '/resend-verification', '/forgot-password', '/reset-password'],
      },
      {
        name: 'sessions',
        description: 'Login, token refresh and logout',
        paths: ['/login', '/refresh-token', '/logout'],
      },
      { name: 'profile', description: "The signed-in user's own account", paths: ['/me'] },
      { name: 'users', description: "Lookups across the project's users", paths: ['/users'] },
      { name: 'keys', description: 'The public keys that verify access tokens', paths: ['/.well-known'] },
    ],
  }),
);
