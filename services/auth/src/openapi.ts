/** The Authentication service's contract: every operation, its request schemas (the routes' own) and responses. */
import {
  buildContractDocument,
  json,
  type OperationDefinition,
  BEARER,
  KEYS,
  KEYS_AND_BEARER,
} from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { anonymousOperations } from './anonymous/anonymous.openapi';
import { eventPageResponse } from './audit/audit.responses';
import { oidcOperations } from './oidc/oidc.openapi';
import { emailSignInOperations } from './email-sign-in/email-sign-in.openapi';
import { eventsQuerySchema, userIdParams as eventUserParams } from './audit/audit.schemas';
import { jwksResponse } from './jwks/jwks.responses';
import {
  activatedResponse,
  challengeResponse,
  enrollResponse,
  factorListResponse,
  recoveryCodesResponse,
} from './mfa/mfa.responses';
import { activateSchema, factorIdParams, secondFactorSchema, verifySchema } from './mfa/mfa.schemas';
import { ceremonyOptionsResponse, passkeyEnvelopeResponse, passkeyListResponse } from './passkeys/passkeys.responses';
import {
  authenticationOptionsSchema,
  authenticationVerifySchema,
  passkeyIdParams,
  registrationVerifySchema,
  renameSchema,
} from './passkeys/passkeys.schemas';
import { changePasswordSchema, emailOnlySchema, resetPasswordSchema } from './passwords/passwords.schemas';
import { registerHeaders, registerSchema } from './registration/registration.schemas';
import { sessionResponse } from './sessions/sessions.responses';
import { loginSchema, refreshSchema } from './sessions/sessions.schemas';
import { messageResponse } from './shared/responses';
import { managedUserEnvelopeResponse, userPageResponse } from './user-admin/user-admin.responses';
import { listUsersSchema, userIdParams } from './user-admin/user-admin.schemas';
import {
  sessionEnvelopeResponse,
  sessionListResponse,
  sessionsEndedResponse,
} from './user-sessions/user-sessions.responses';
import {
  endScopeSchema,
  sessionIdParams,
  userIdParams as sessionUserIdParams,
  userSessionParams,
} from './user-sessions/user-sessions.schemas';
import { userEnvelopeResponse, userLookupEnvelopeResponse } from './users/users.responses';
import { deleteMetadataSchema, lookupSchema, updateMeSchema } from './users/users.schemas';
import { verifyEmailSchema } from './verification/verification.schemas';

const RATE_LIMITED =
  "Limited per client address and project, and per email and project (AUTH_RATE_LIMIT_PER_IP / AUTH_RATE_LIMIT_PER_EMAIL per AUTH_RATE_LIMIT_WINDOW_MS, by default 300 and 10 per 15 minutes, each endpoint counted apart): 429 RATE_LIMITED with Retry-After. One project's requests never use up another project's allowance. The client address is the one the trusted proxies (TRUST_PROXY) vouch for; an IPv4 client is its IPv4 address, an IPv6 client its /64.";
const OPTIONAL_KEYS =
  'Key headers are optional here; when sent, they must be valid and name the project the credential belongs to.';
const TRAIL =
  'sign_up, sign_in, sign_in_failed (data.reason: wrong_password, unknown_email, locked, ...; never the password), lockout, refresh_token_reused, password_changed, password_reset, email_verified, session_ended (data.endedBy: user, project, logout, password_change, password_reset, reuse_detected), mfa_enrolled, mfa_removed, mfa_challenge_failed, recovery_code_used, passkey_added, passkey_removed, anonymous_converted, sign_in_code_sent, identity_linked, identity_unlinked, oidc_provider_changed; each with time, client address, user agent and session id. Filter by type (comma-separated) and time (from inclusive, to exclusive); page with limit (at most 100, default 50) and cursor (the nextCursor of the previous page). Kept AUTH_EVENT_RETENTION_DAYS (90 by default), and erased with the user.';
/** `/me` takes the bearer alone, or with key headers of the same project. */
const BEARER_OPTIONAL_KEYS = [...BEARER, ...KEYS_AND_BEARER];

const loginResponse = Joi.alternatives().try(sessionResponse, challengeResponse).id('LoginResult');

const listed: OperationDefinition[] = [
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
    description: `Unknown email and wrong password both give 401 INVALID_CREDENTIALS in about the same time. 5 consecutive failures lock the email for 15 minutes, whether or not it has an account (423 ACCOUNT_LOCKED with Retry-After, even for the right password). Success resets the count and sets lastLogin. An unverified email does not block login (the app reads user.emailVerified). The right password of a disabled user (POST /users/{user_id}/disable) is 403 FORBIDDEN. When the user has an active second factor, the answer is an MFA challenge ({mfaRequired: true, challengeId, expiresAt, factors}) instead of tokens: complete it with POST /mfa/verify. When the project sets requireMfa and the user has no factor, the access token carries scp "mfa_enroll" and every service refuses it except the MFA enrolment endpoints. ${RATE_LIMITED}`,
    security: KEYS,
    request: { body: loginSchema },
    responses: { 200: json('Logged in, or an MFA challenge', loginResponse) },
    errors: [400, 401, 403, 423, 429],
  },
  {
    method: 'post',
    path: '/refresh-token',
    operationId: 'postRefreshToken',
    summary: 'Exchange a refresh token for a new pair',
    description:
      'Rotates: the presented token dies and a new one is returned, and its session (GET /sessions) records the refresh. A token that was already rotated, revoked (logout, password change or reset, a session ended, disabling the user), or expired, or one of a disabled user, is 401 INVALID_SESSION; presenting an already-rotated one also ends its session and revokes every token of it.',
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
      "Increments the user's token version and ends every session of the user: every refresh token stops working. Access tokens stay valid until they expire (15 minutes). An unknown refresh token also gets 200.",
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
    method: 'post',
    path: '/me/password',
    operationId: 'postMePassword',
    summary: 'Change the password of the signed-in user',
    description: `The current password must be right: a wrong one is 401 INVALID_CREDENTIALS and counts toward the lockout like a failed login. Every other session of the user ends (its refresh tokens die at once); the session of this access token goes on. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { body: changePasswordSchema },
    responses: { 200: json('Password changed', messageResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/sessions',
    operationId: 'getSessions',
    summary: "The signed-in user's live sessions",
    description: `Every sign-in (registration, password, MFA completion, passkey) is a session; the one of this access token (its sid claim) has current: true. A session ends by DELETE, logout, a password change (the others) or reset (all), reuse of a rotated refresh token, or 30 days without a refresh. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    responses: { 200: json('Live sessions', sessionListResponse) },
    errors: [401],
  },
  {
    method: 'delete',
    path: '/sessions',
    operationId: 'deleteSessions',
    summary: 'End the other sessions (scope=others) or all of them (scope=all)',
    description: `The refresh tokens of the sessions ended die at once. Access tokens already issued stay valid until they expire (15 minutes); a resource server that must know sooner asks GET /sessions/{id}. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { query: endScopeSchema },
    responses: { 200: json('Sessions ended', sessionsEndedResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/sessions/{id}',
    operationId: 'getSessionsById',
    summary: 'Is this session still live?',
    description: `For a resource server holding the user's access token: 200 with the session while it is live, 404 once it has ended (or when it is another user's). Pass the token's sid claim. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { params: sessionIdParams },
    responses: { 200: json('The live session', sessionEnvelopeResponse) },
    errors: [401, 404],
  },
  {
    method: 'delete',
    path: '/sessions/{id}',
    operationId: 'deleteSessionsById',
    summary: 'End one session of the signed-in user',
    description: `Its refresh tokens die at once. Another user's session, an ended or unknown one: 404. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { params: sessionIdParams },
    responses: { 200: json('Session ended', sessionsEndedResponse) },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/users/{userId}/sessions',
    operationId: 'getUsersByUserIdSessions',
    summary: "A user's live sessions (project keys: console, support staff)",
    security: KEYS,
    request: { params: sessionUserIdParams },
    responses: { 200: json('Live sessions', sessionListResponse) },
    errors: [401, 404],
  },
  {
    method: 'delete',
    path: '/users/{userId}/sessions',
    operationId: 'deleteUsersByUserIdSessions',
    summary: 'End every session of a user (project keys)',
    security: KEYS,
    request: { params: sessionUserIdParams },
    responses: { 200: json('Sessions ended', sessionsEndedResponse) },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/users/{userId}/sessions/{id}',
    operationId: 'getUsersByUserIdSessionsById',
    summary: 'One live session of a user (project keys); 404 once ended',
    security: KEYS,
    request: { params: userSessionParams },
    responses: { 200: json('The live session', sessionEnvelopeResponse) },
    errors: [401, 404],
  },
  {
    method: 'delete',
    path: '/users/{userId}/sessions/{id}',
    operationId: 'deleteUsersByUserIdSessionsById',
    summary: 'End one session of a user (project keys)',
    security: KEYS,
    request: { params: userSessionParams },
    responses: { 200: json('Session ended', sessionsEndedResponse) },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/events',
    operationId: 'getEvents',
    summary: "The project's security audit trail (project keys)",
    description: `Security events of every user of the project, newest first: ${TRAIL}`,
    security: KEYS,
    request: { query: eventsQuerySchema },
    responses: { 200: json('A page of events', eventPageResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/users/{userId}/events',
    operationId: 'getUsersByUserIdEvents',
    summary: "One user's security audit trail (project keys)",
    description: `Newest first: ${TRAIL} An unknown user (or one of another project) is 404.`,
    security: KEYS,
    request: { params: eventUserParams, query: eventsQuerySchema },
    responses: { 200: json('A page of events', eventPageResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/me/events',
    operationId: 'getMeEvents',
    summary: "The signed-in user's own security history",
    description: `Newest first: ${TRAIL} ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { query: eventsQuerySchema },
    responses: { 200: json('A page of events', eventPageResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/mfa/totp',
    operationId: 'postMfaTotp',
    summary: 'Start enrolling a TOTP authenticator',
    description: `A new secret (sealed at rest with the platform's secret box), its otpauth:// URI and the URI as an SVG QR code. The factor stays pending until POST /mfa/totp/{id}/activate; a newer enrolment replaces a pending one. 409 when a TOTP factor is already active. Works with a token issued under requireMfa (good only for enrolling). ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    responses: { 201: json('Enrolment started', enrollResponse) },
    errors: [401, 409],
  },
  {
    method: 'post',
    path: '/mfa/totp/{id}/activate',
    operationId: 'postMfaTotpByIdActivate',
    summary: 'Activate a TOTP factor with a first code',
    description: `A code of the current 30-second step (one step of clock skew either way) activates the factor and returns ten single-use recovery codes, shown this once. From then on a password sign-in answers an MFA challenge. A wrong code: 400. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { params: factorIdParams, body: activateSchema },
    responses: { 200: json('Active, with recovery codes', activatedResponse) },
    errors: [400, 401, 404, 409],
  },
  {
    method: 'get',
    path: '/mfa/factors',
    operationId: 'getMfaFactors',
    summary: "The signed-in user's second factors",
    description: OPTIONAL_KEYS,
    security: BEARER_OPTIONAL_KEYS,
    responses: { 200: json('Factors', factorListResponse) },
    errors: [401],
  },
  {
    method: 'delete',
    path: '/mfa/factors/{id}',
    operationId: 'deleteMfaFactorsById',
    summary: 'Remove a factor (an active one needs a fresh second factor)',
    description: `Removing an active factor takes a current code or a recovery code in the body: a wrong one is 401 INVALID_CREDENTIALS and counts toward the lockout (423 once locked). Removing the last active factor also deletes the recovery codes. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { params: factorIdParams, body: secondFactorSchema, bodyRequired: false },
    responses: { 200: json('Removed', messageResponse) },
    errors: [400, 401, 404, 423],
  },
  {
    method: 'post',
    path: '/mfa/recovery-codes',
    operationId: 'postMfaRecoveryCodes',
    summary: 'Replace the recovery codes',
    description: `Takes a current code or a recovery code (wrong: 401, counted toward the lockout); the old codes stop working and ten new ones are shown this once. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { body: secondFactorSchema },
    responses: { 200: json('New recovery codes', recoveryCodesResponse) },
    errors: [400, 401, 423],
  },
  {
    method: 'post',
    path: '/mfa/verify',
    operationId: 'postMfaVerify',
    summary: 'Complete a password sign-in with the second factor',
    description: `The challengeId from POST /login and a current code (each code works once; one step of clock skew) or a recovery code (each works once). Success: a new session with aal2 tokens. A wrong code: 401 INVALID_CREDENTIALS, counted toward the lockout like a wrong password (423 ACCOUNT_LOCKED once locked); an unknown, used or expired (5 minutes) challenge: 401 INVALID_SESSION. ${RATE_LIMITED}`,
    security: KEYS,
    request: { body: verifySchema },
    responses: { 200: json('Signed in', sessionResponse) },
    errors: [400, 401, 423, 429],
  },
  {
    method: 'post',
    path: '/passkeys/registration/options',
    operationId: 'postPasskeysRegistrationOptions',
    summary: 'Start registering a passkey for the signed-in user',
    description: `Options for navigator.credentials.create (a discoverable credential with user verification; the user's existing passkeys excluded) and a challengeId good once for 5 minutes. The relying party is the project's appUrl host (APP_URL when the project sets none); the origins allowed are appUrl's and the project's allowedOrigins. Needs the project's keys and the user's bearer token.`,
    security: KEYS_AND_BEARER,
    responses: { 200: json('Creation options', ceremonyOptionsResponse) },
    errors: [401],
  },
  {
    method: 'post',
    path: '/passkeys/registration/verify',
    operationId: 'postPasskeysRegistrationVerify',
    summary: 'Finish registering a passkey',
    description:
      'The challengeId and the credential navigator.credentials.create returned, as JSON (binary fields base64url). A wrong origin, RP ID or challenge, an unknown, used or expired challengeId, or a credential without user verification: 400. Records passkey_added.',
    security: KEYS_AND_BEARER,
    request: { body: registrationVerifySchema },
    responses: { 201: json('Registered', passkeyEnvelopeResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/passkeys/authentication/options',
    operationId: 'postPasskeysAuthenticationOptions',
    summary: 'Start signing in with a passkey',
    description: `Options for navigator.credentials.get and a challengeId good once for 5 minutes. Without an email the browser offers the discoverable passkeys it holds for the project's relying party; with one, the user's passkeys are listed (an unknown email gets an empty list, as if none was typed). ${RATE_LIMITED}`,
    security: KEYS,
    request: { body: authenticationOptionsSchema, bodyRequired: false },
    responses: { 200: json('Request options', ceremonyOptionsResponse) },
    errors: [400, 401, 429],
  },
  {
    method: 'post',
    path: '/passkeys/authentication/verify',
    operationId: 'postPasskeysAuthenticationVerify',
    summary: 'Finish signing in with a passkey',
    description: `The challengeId and the assertion navigator.credentials.get returned, as JSON. Success: a new session (method passkey) with aal2 tokens; the passkey's sign count and backup state are stored. An unknown, used or expired challengeId: 400; an unknown credential, a wrong origin, RP ID or signature, a sign count that went backwards, or a passkey of another user than the email the options were asked for: 401 INVALID_CREDENTIALS (recorded as sign_in_failed with reason passkey_invalid when the credential is known). A disabled user: 403; a locked email: 423. ${RATE_LIMITED}`,
    security: KEYS,
    request: { body: authenticationVerifySchema },
    responses: { 200: json('Signed in', sessionResponse) },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/passkeys',
    operationId: 'getPasskeys',
    summary: "The signed-in user's passkeys",
    description: `Oldest first, never the public key. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    responses: { 200: json('Passkeys', passkeyListResponse) },
    errors: [401],
  },
  {
    method: 'patch',
    path: '/passkeys/{id}',
    operationId: 'patchPasskeysById',
    summary: 'Rename a passkey',
    description: `Another user's passkey is 404. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { params: passkeyIdParams, body: renameSchema },
    responses: { 200: json('Renamed', passkeyEnvelopeResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'delete',
    path: '/passkeys/{id}',
    operationId: 'deletePasskeysById',
    summary: 'Delete a passkey',
    description: `It can no longer sign in; sessions it started stay. Records passkey_removed. Another user's passkey is 404. ${OPTIONAL_KEYS}`,
    security: BEARER_OPTIONAL_KEYS,
    request: { params: passkeyIdParams },
    responses: { 200: json('Deleted', messageResponse) },
    errors: [401, 404],
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
  ...anonymousOperations(RATE_LIMITED),
  ...emailSignInOperations(RATE_LIMITED),
  ...oidcOperations(RATE_LIMITED, BEARER_OPTIONAL_KEYS),
];

/** Where a token issued under requireMfa (scp "mfa_enroll") is accepted; every other bearer route refuses it. */
const ENROLLING = new Set(['postMfaTotp', 'postMfaTotpByIdActivate', 'getMfaFactors']);

const operations: OperationDefinition[] = listed.map((op) =>
  op.security === BEARER_OPTIONAL_KEYS && !ENROLLING.has(op.operationId)
    ? {
        ...op,
        description:
          `${op.description ?? ''} A token good only for MFA enrolment (requireMfa, no factor yet) is 403 FORBIDDEN.`.trim(),
        errors: [...(op.errors ?? []), 403].sort(),
      }
    : op,
);

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
        paths: ['/login', '/refresh-token', '/logout', '/anonymous', '/otp', '/authorize', '/callback', '/token'],
      },
      {
        name: 'passkeys',
        description: 'WebAuthn passkeys: registration, sign-in and management',
        paths: ['/passkeys'],
      },
      {
        name: 'providers',
        description: 'OpenID Connect providers of the project',
        paths: ['/oidc'],
      },
      { name: 'profile', description: "The signed-in user's own account", paths: ['/me'] },
      { name: 'users', description: "Lookups across the project's users", paths: ['/users'] },
      { name: 'keys', description: 'The public keys that verify access tokens', paths: ['/.well-known'] },
    ],
  }),
);
