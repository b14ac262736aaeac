import type { JsonSchema } from '@platform/tenancy';

const nullableString = (description: string, format?: string): JsonSchema => ({
  type: ['string', 'null'],
  ...(format ? { format } : {}),
  description,
});

const userProperties: Record<string, JsonSchema> = {
  id: { type: 'string', format: 'uuid' },
  email: { type: 'string', format: 'email', description: 'Trimmed and lowercased; unique within the project' },
  emailVerified: { type: 'boolean', description: 'false after registration, true once a verification link was used' },
  phoneNumber: nullableString('Set through PATCH /me'),
  phoneVerified: { type: 'boolean', description: 'Reset to false when the phone number changes' },
  avatarUrl: nullableString('http(s) URL, set through PATCH /me', 'uri'),
  username: nullableString('Set through PATCH /me'),
  metadata: { type: 'object', description: 'Free-form key/value; PATCH /me merges top-level keys' },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  lastLogin: nullableString('Time of the last successful login; null before the first', 'date-time'),
};

const lookupProperties: Record<string, JsonSchema> = {
  ...userProperties,
  tenantId: { type: 'string', format: 'uuid' },
  projectId: { type: 'string', format: 'uuid' },
  isAdmin: { type: 'boolean' },
  isCoreAccount: { type: 'boolean' },
};

const strictObject = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});

export const schemas: Record<string, JsonSchema> = {
  User: strictObject(userProperties),
  UserLookup: strictObject(lookupProperties),
  Session: {
    type: 'object',
    required: ['success', 'user', 'accessToken', 'refreshToken'],
    properties: {
      success: { const: true },
      user: { $ref: '#/components/schemas/User' },
      accessToken: {
        type: 'string',
        description:
          'RS256 JWT, 15 minutes. Claims: sub (user id), tid (tenant), pid (project), email, ver (token version), typ "access", iss "platform-auth". Verify with GET /.well-known/jwks.json.',
      },
      refreshToken: {
        type: 'string',
        description:
          'Opaque, 30 days, single use: every refresh returns a new one. Presenting a used one revokes the whole session family.',
      },
    },
  },
  UserEnvelope: {
    type: 'object',
    required: ['user'],
    properties: { user: { $ref: '#/components/schemas/User' } },
  },
  Message: {
    type: 'object',
    required: ['success', 'message'],
    properties: { success: { const: true }, message: { type: 'string' } },
  },
  Metadata: { type: 'object', description: 'Free-form key/value object' },
  Jwks: {
    type: 'object',
    required: ['keys'],
    properties: {
      keys: {
        type: 'array',
        items: {
          type: 'object',
          required: ['kty', 'n', 'e', 'kid', 'alg', 'use'],
          properties: {
            kty: { const: 'RSA' },
            n: { type: 'string' },
            e: { type: 'string' },
            kid: { type: 'string', description: 'RFC 7638 thumbprint of the key' },
            alg: { const: 'RS256' },
            use: { const: 'sig' },
          },
        },
      },
    },
  },
};

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const email: JsonSchema = { type: 'string', format: 'email', maxLength: 254 };
export const newPassword: JsonSchema = {
  type: 'string',
  description: '8 to 72 bytes in UTF-8 (bcrypt reads 72 bytes; longer is refused, never truncated); no NUL characters',
};
