import './express-augment';

export { AppError, errors, ERROR_STATUS, type ErrorCode, type ErrorDetail } from './errors';
export { errorHandler, notFoundHandler, toAppError, type ErrorShape } from './error-handler';
export { headersOnly, ownBodyReader, isHeadersOnly, readsOwnBody } from './body-order';
export { HeldRefusals, DEFAULT_REFUSAL_HOLD_LIMITS, type RefusalHoldLimits } from './held-refusals';
export { tenantOf, SEARCH_LANGUAGES, type ProjectSettings, type Tenant, type TenantContext } from './tenant-context';
export { LOOKUPS_BUSY, type ApiKeyRecord, type KeyCheckLimits, type KeyDirectory } from './key-directory';
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
export { clientAddressKey, IPV6_CLIENT_PREFIX } from './client-address';
export { createRateLimit, byProject, byIp, byBodyEmail, type RateLimitOptions } from './rate-limit';
export { ownEntry } from './own-entry';
export { sha256Hex, constantTimeEqual, randomToken } from './crypto';
export { findString, rejectLoneSurrogates } from './text-guard';
export { toIso } from './time';
