import type { Request } from 'express';
import { errors } from './errors';

/**
 * Postgres's built-in text search configurations (since 13): the values the CMS's
 * `searchLanguage` setting may take.
 */
export const SEARCH_LANGUAGES = [
  'simple',
  'arabic',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hungarian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
] as const;

export interface ProjectSettings {
  requireEmailVerification?: boolean;
  appUrl?: string;
  allowedOrigins?: string[];
  searchLanguage?: (typeof SEARCH_LANGUAGES)[number];
  /** Authentication: users without a second factor get tokens good only for enrolling one. */
  requireMfa?: boolean;
  /** Authentication: where a provider sign-in may send the browser back to (exact match). */
  allowedRedirectUrls?: string[];
  /** Authentication: POST /anonymous may create users who have not signed up. */
  anonymousSignIn?: boolean;
  /** Authentication: an e-mail sign-in code may create the account (true unless set to false). */
  emailSignUp?: boolean;
  [key: string]: unknown;
}

/** Who is calling: set by the key middleware, the first argument of every repository function. */
export interface TenantContext {
  tenantId: string;
  projectId: string;
  settings: ProjectSettings;
}

/** The owner of every row: what repository functions take first. */
export type Tenant = Pick<TenantContext, 'tenantId' | 'projectId'>;

/** The tenant of a request that passed the key middleware. */
export function tenantOf(req: Request): TenantContext {
  if (!req.tenant) throw errors.unauthorized();
  return req.tenant;
}
