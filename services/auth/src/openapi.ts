import { buildOpenApiDocument } from '@platform/tenancy';
import { schemas } from './openapi/components';
import { paths } from './openapi/paths';

export const openapi = buildOpenApiDocument({
  title: 'Authentication service',
  description:
    'Registration and login with email and password, token refresh and rotation, logout, password reset, email verification, profile and metadata, lookup by email. All paths start with /v1. Errors: {success: false, error: {code, message, details?}} with codes VALIDATION_ERROR 400, UNAUTHORIZED 401 (keys), INVALID_CREDENTIALS 401, INVALID_SESSION 401 (bearer or refresh token), NOT_FOUND 404, USER_ALREADY_EXISTS 409, TOKEN_EXPIRED 410, ACCOUNT_LOCKED 423, RATE_LIMITED 429.',
  paths,
  schemas,
});
