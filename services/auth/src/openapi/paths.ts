import {
  BEARER,
  errorResponses,
  jsonBody,
  jsonResponse,
  KEYS,
  KEYS_AND_BEARER,
  type JsonSchema,
} from '@platform/tenancy';
import { email, newPassword, ref } from './components';

const object = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  required,
  properties,
});

const retryAfter = {
  'Retry-After': { description: 'Seconds until the next attempt may succeed', schema: { type: 'integer' } },
};

/** Error responses, with Retry-After documented on 423 and 429. */
function errorsFor(...statuses: number[]): Record<string, unknown> {
  const responses = errorResponses(...statuses) as Record<string, Record<string, unknown>>;
  for (const status of ['423', '429'])
    if (responses[status]) responses[status] = { ...responses[status], headers: retryAfter };
  return responses;
}

const RATE_LIMITED =
  'Limited per client IP and per email (AUTH_RATE_LIMIT_PER_IP / AUTH_RATE_LIMIT_PER_EMAIL per AUTH_RATE_LIMIT_WINDOW_MS): 429 RATE_LIMITED with Retry-After.';
const OPTIONAL_KEYS =
  'Key headers are optional here; when sent, they must be valid and name the project the credential belongs to.';

const emailOnly = jsonBody(object({ email }, ['email']));
const refreshBody = jsonBody(object({ refreshToken: { type: 'string' } }, ['refreshToken']));
const userResponse = jsonResponse('The user', ref('UserEnvelope'));

export const paths: Record<string, unknown> = {
  '/register': {
    post: {
      summary: 'Register with email and password',
      description: `Creates the user and a first session. Writes auth.user.registered to the outbox; when the project setting requireEmailVerification is true it carries a verification link (24 h). The user's locale (metadata.locale, a BCP 47 tag) picks the locale variant of the project's auth email templates in the Mailer; when metadata has no locale, the most preferred tag of Accept-Language is stored as metadata.locale. ${RATE_LIMITED}`,
      security: KEYS,
      parameters: [
        {
          name: 'Accept-Language',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'Kept as metadata.locale (its most preferred language tag) when metadata names no locale',
        },
      ],
      requestBody: jsonBody(object({ email, password: newPassword, metadata: ref('Metadata') }, ['email', 'password'])),
      responses: {
        '201': jsonResponse('Registered', ref('Session')),
        ...errorsFor(400, 401, 409, 429),
      },
    },
  },
  '/login': {
    post: {
      summary: 'Log in with email and password',
      description: `Unknown email and wrong password both give 401 INVALID_CREDENTIALS in about the same time. 5 consecutive failures lock the email for 15 minutes, whether or not it has an account (423 ACCOUNT_LOCKED with Retry-After, even for the right password). Success resets the count and sets lastLogin. An unverified email does not block login (the app reads user.emailVerified). ${RATE_LIMITED}`,
      security: KEYS,
      requestBody: jsonBody(object({ email, password: { type: 'string' } }, ['email', 'password'])),
      responses: {
        '200': jsonResponse('Logged in', ref('Session')),
        ...errorsFor(400, 401, 423, 429),
      },
    },
  },
  '/refresh-token': {
    post: {
      summary: 'Exchange a refresh token for a new pair',
      description:
        'Rotates: the presented token dies and a new one is returned. A token that was already rotated, revoked (logout, password reset), or expired is 401 INVALID_SESSION; presenting an already-rotated one also revokes every token of that login.',
      security: KEYS,
      requestBody: refreshBody,
      responses: {
        '200': jsonResponse('New tokens', ref('Session')),
        ...errorsFor(400, 401),
      },
    },
  },
  '/logout': {
    post: {
      summary: 'End every session of the user',
      description:
        "Increments the user's token version: every refresh token of the user stops working. Access tokens stay valid until they expire (15 minutes). An unknown refresh token also gets 200.",
      security: KEYS,
      requestBody: refreshBody,
      responses: {
        '200': jsonResponse('Logged out', ref('Message')),
        ...errorsFor(400, 401),
      },
    },
  },
  '/forgot-password': {
    post: {
      summary: 'Ask for a password reset email',
      description: `Same answer whether or not the account exists, and in the same time: every answer waits at least AUTH_FORGOT_PASSWORD_MIN_MS (500 ms by default). For an existing account, writes auth.password-reset.requested with a link <appUrl>/reset-password?token=... valid 1 hour; earlier reset links stop working. ${RATE_LIMITED}`,
      security: KEYS,
      requestBody: emailOnly,
      responses: {
        '200': jsonResponse('Accepted', ref('Message')),
        ...errorsFor(400, 401, 429),
      },
    },
  },
  '/reset-password': {
    post: {
      summary: 'Set a new password with a reset token',
      description:
        'The token is single use. Unknown or used: 400 VALIDATION_ERROR; older than 1 hour: 410 TOKEN_EXPIRED. Success ends every session of the user and lifts a lockout.',
      security: KEYS,
      requestBody: jsonBody(object({ token: { type: 'string' }, password: newPassword }, ['token', 'password'])),
      responses: {
        '200': jsonResponse('Password changed', ref('Message')),
        ...errorsFor(400, 401, 410),
      },
    },
  },
  '/verify-email': {
    post: {
      summary: 'Confirm an email address with a verification token',
      description: `The token (from the link in the email, valid 24 hours, single use) identifies the user. Unknown, used or expired: 400 VALIDATION_ERROR. ${OPTIONAL_KEYS}`,
      security: [{}, ...KEYS],
      requestBody: jsonBody(object({ token: { type: 'string' } }, ['token'])),
      responses: {
        '200': jsonResponse('Verified', ref('Message')),
        ...errorsFor(400, 401),
      },
    },
  },
  '/resend-verification': {
    post: {
      summary: 'Send a new verification email',
      description: `Writes auth.verification.requested with a new link (24 h); earlier links stop working. 400 when the email is unknown or already verified. ${RATE_LIMITED}`,
      security: KEYS,
      requestBody: emailOnly,
      responses: {
        '200': jsonResponse('Sent', ref('Message')),
        ...errorsFor(400, 401, 429),
      },
    },
  },
  '/me': {
    get: {
      summary: 'The signed-in user',
      description: `Bearer access token alone. ${OPTIONAL_KEYS}`,
      security: [...BEARER, ...KEYS_AND_BEARER],
      responses: { '200': userResponse, ...errorsFor(401) },
    },
    patch: {
      summary: 'Update the profile',
      description: `Only fields sent change. metadata is merged shallowly: top-level keys sent are added or replaced, others are kept. null clears phoneNumber, avatarUrl or username. ${OPTIONAL_KEYS}`,
      security: [...BEARER, ...KEYS_AND_BEARER],
      requestBody: jsonBody(
        object(
          {
            phoneNumber: { type: ['string', 'null'], maxLength: 64 },
            avatarUrl: { type: ['string', 'null'], format: 'uri', maxLength: 2048 },
            username: { type: ['string', 'null'], maxLength: 128 },
            metadata: ref('Metadata'),
          },
          [],
        ),
      ),
      responses: { '200': userResponse, ...errorsFor(400, 401) },
    },
    delete: {
      summary: 'Remove metadata keys',
      description: `Each top-level key named in metadata is removed (send null as its value; values are ignored). An empty metadata object, or an empty body, removes all metadata. The account itself is not deleted. ${OPTIONAL_KEYS}`,
      security: [...BEARER, ...KEYS_AND_BEARER],
      requestBody: jsonBody(object({ metadata: ref('Metadata') }, []), false),
      responses: { '200': userResponse, ...errorsFor(400, 401) },
    },
  },
  '/users/by-email': {
    get: {
      summary: 'Look up a user of the project by email',
      security: KEYS,
      parameters: [{ name: 'email', in: 'query', required: true, schema: email }],
      responses: {
        '200': jsonResponse('The user', object({ user: ref('UserLookup') }, ['user'])),
        ...errorsFor(400, 401, 404),
      },
    },
  },
  '/.well-known/jwks.json': {
    get: {
      summary: 'Public key that verifies access tokens',
      security: [],
      responses: { '200': jsonResponse('JSON Web Key Set', ref('Jwks')) },
    },
  },
};
