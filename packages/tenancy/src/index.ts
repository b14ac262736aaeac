import './express-augment';

export { AppError, errors, type ErrorCode, type ErrorDetail } from './errors';
export { errorHandler, notFoundHandler } from './error-handler';
export { HeldRefusals, type RefusalHoldLimits } from './held-refusals';
export { tenantOf, type ProjectSettings, type Tenant, type TenantContext } from './tenant-context';
export { LOOKUPS_BUSY, type ApiKeyRecord, type KeyCheckLimits, type KeyDirectory } from './key-directory';
export { FailedKeyChecks } from './failed-key-checks';
export { isUuid } from './uuid';
export { refuseFloodingAddresses, requireKeys } from './keys';
export { leaveInFlight } from './project-in-flight';
export { projectKeys, type ProjectKeysDeps } from './project-keys';
export {
  requireBearer,
  bearerTokenOf,
  verifyAccessToken,
  signAccessToken,
  accessTokenAudience,
  MFA_ENROLLMENT_SCOPE,
  signingKey,
  ACCESS_TOKEN_TTL_SECONDS,
  ACCESS_TOKEN_ALGORITHM,
  ACCESS_TOKEN_ISSUER,
  type AccessTokenClaims,
} from './bearer';
export { Joi, parse, pageSchema, type Page } from './validation';
export { jsonSchemaParser } from './json-schema-parser';
export { createRateLimit, byProject, byIp, byBodyEmail, type RateLimitOptions } from './rate-limit';
export { loadPlatformConfig, assertProductionSecrets, ConfigError, type PlatformConfig } from './config';
export { isPublishedSecret } from './published-secrets';
export { ownEntry } from './own-entry';
export { findString, rejectLoneSurrogates } from './text-guard';
export { SecretBox, sha256Hex, constantTimeEqual, randomToken } from './crypto';
export { TtlCache } from './ttl-cache';
export { FixedWindowCounter } from './fixed-window-counter';
export {
  buildOpenApiDocument,
  errorResponses,
  jsonBody,
  jsonResponse,
  KEYS,
  BEARER,
  KEYS_AND_BEARER,
  type JsonSchema,
  type OpenApiInput,
} from './openapi';
export { toIso } from './time';
export { ProjectSlots } from './project-slots';
