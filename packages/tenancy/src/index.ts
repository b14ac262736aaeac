import './express-augment';

export { AppError, errors, type ErrorCode, type ErrorDetail } from './errors';
export { errorHandler, notFoundHandler, toAppError, type ErrorShape } from './error-handler';
export { headersOnly, ownBodyReader, isHeadersOnly, readsOwnBody } from './body-order';
export { HeldRefusals, type RefusalHoldLimits } from './held-refusals';
export { tenantOf, SEARCH_LANGUAGES, type ProjectSettings, type Tenant, type TenantContext } from './tenant-context';
export { LOOKUPS_BUSY, type ApiKeyRecord, type KeyCheckLimits, type KeyDirectory } from './key-directory';
export { FailedKeyChecks } from './failed-key-checks';
export { isUuid } from './uuid';
export { refuseFloodingAddresses, requireKeys } from './keys';
export { leaveInFlight } from './project-in-flight';
export { projectKeys, type ProjectKeysDeps } from './project-keys';
export {
  acceptMemberTokens,
  signMemberToken,
  verifyMemberToken,
  MEMBER_ROLES,
  MEMBER_TOKEN_AUDIENCE,
  MEMBER_TOKEN_ISSUER,
  MEMBER_TOKEN_MAX_TTL_SECONDS,
  type MemberAction,
  type MemberActionSink,
  type MemberClaims,
  type MemberRole,
  type MemberTokenDeps,
} from './member-token';
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
export { Joi, parse, assertShallow, pageSchema, type Page } from './validation';
export { MAX_JSON_DEPTH, tooDeepAt, tooDeepMessage } from './json-depth';
export { parseWebUrl, webUrl, isWebOrigin } from './web-url';
export { dayRangeKeys, dayRangeOf, type DayRange, type DayRangeQuery } from './day-range';
export { jsonSchemaParser } from './json-schema-parser';
export { clientAddressKey, IPV6_CLIENT_PREFIX } from './client-address';
export { createRateLimit, byProject, byIp, byBodyEmail, type RateLimitOptions } from './rate-limit';
export {
  loadPlatformConfig,
  assertProductionSecrets,
  ConfigError,
  type PlatformConfig,
  type TrustProxy,
} from './config';
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
export { type OpenApiTag } from './openapi-tags';
export { toIso } from './time';
export { ProjectSlots } from './project-slots';
