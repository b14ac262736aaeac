/**
 * Events that cross services, by routing key, with their `data` payloads (version 1).
 * Producers and consumers both import these names and types.
 */
export const AUTH_EVENTS = {
  userRegistered: 'auth.user.registered',
  verificationRequested: 'auth.verification.requested',
  passwordResetRequested: 'auth.password-reset.requested',
  /** A sign-in link and six-digit code to send (`SignInEmailData`). */
  signInRequested: 'auth.sign-in.requested',
  /** A user is gone (deleted by the project, or an anonymous user pruned): every service erases their data. */
  userDeleted: 'auth.user.deleted',
} as const;

/**
 * Events whose data carries a usable secret (a single-use token in a link), or the address of a
 * user being erased: the outbox deletes such a row as soon as the broker has it instead of
 * keeping it for the retention period.
 */
export const SECRET_BEARING_EVENTS: ReadonlySet<string> = new Set([
  AUTH_EVENTS.userRegistered,
  AUTH_EVENTS.verificationRequested,
  AUTH_EVENTS.passwordResetRequested,
  AUTH_EVENTS.signInRequested,
  AUTH_EVENTS.userDeleted,
  'platform.invitation.created',
]);

/** An email the Mailer sends on Authentication's behalf. `link` carries the single-use token. */
/** The `locale` of auth events: a BCP 47 language tag with up to three subtags (`pt-BR`, `zh-Hant-TW`). */
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

export interface AuthEmailData {
  userId: string;
  email: string;
  /** `<appUrl>/verify-email?token=...` or `<appUrl>/reset-password?token=...` */
  link: string;
  expiresAt: string;
  /** The user's locale (BCP 47), when known: the Mailer sends the template's variant for it. */
  locale?: string;
}

/** `auth.sign-in.requested`: the link signs in when opened, the code when typed (both single use). */
export interface SignInEmailData extends Omit<AuthEmailData, 'userId'> {
  /** Absent when the address has no account yet (signing in will create it). */
  userId?: string;
  code: string;
}

/**
 * `auth.user.deleted`: `reason` is `deleted` (by the project) or `anonymous_pruned`; `email` is the
 * user's address when they had one, for the services that hold data by address (the Mailer).
 */
export interface UserDeletedData {
  userId: string;
  reason: 'deleted' | 'anonymous_pruned';
  email?: string | null;
}

/** `auth.user.registered`: `verification` is present when the project requires email verification. */
export interface UserRegisteredData {
  userId: string;
  email: string;
  verification?: { link: string; expiresAt: string };
  /** The user's locale (BCP 47), when known. */
  locale?: string;
}

/** `auth.verification.requested` and `auth.password-reset.requested`. */
export type VerificationRequestedData = AuthEmailData;
export type PasswordResetRequestedData = AuthEmailData;

/**
 * Events of the control plane (`services/console`). The console writes
 * `projectErasureRequested` through its outbox when a project is deleted; each of the six
 * services consumes it idempotently, erases every row of that project in its own database and
 * answers `projectErased` naming itself. `memberAction` records a write a console member made
 * in a service with a member token, for the console's audit log.
 */
export const PLATFORM_EVENTS = {
  projectErasureRequested: 'platform.project.erasure-requested',
  projectErased: 'platform.project.erased',
  memberAction: 'platform.member.action',
  invitationCreated: 'platform.invitation.created',
} as const;

/** The services that confirm a project's erasure, in the order the console shows them. */
export const ERASING_SERVICES = ['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications'] as const;
export type ErasingService = (typeof ERASING_SERVICES)[number];

/** `platform.project.erasure-requested` */
export interface ProjectErasureRequestedData {
  tenantId: string;
  projectId: string;
  requestedAt: string;
}

/** `platform.project.erased`: one per service and project. */
export interface ProjectErasedData {
  tenantId: string;
  projectId: string;
  service: ErasingService;
  erasedAt: string;
}

/** `platform.member.action`: a write a console member made in a service with a member token. */
export interface MemberActionData {
  tenantId: string;
  projectId: string;
  memberId: string;
  memberEmail: string;
  role: 'owner' | 'admin' | 'developer' | 'viewer';
  service: ErasingService;
  method: string;
  /** The route pattern (`/v1/content/:id`), never the query string. */
  route: string;
  status: number;
  clientAddress: string;
  userAgent: string;
  at: string;
}

/**
 * `platform.invitation.created`: an e-mail the Mailer sends for the console, under the console's
 * reserved project (its tenantId and projectId are the envelope's). `link` carries the
 * single-use invitation token.
 */
export interface InvitationCreatedData {
  invitationId: string;
  email: string;
  organisationName: string;
  role: 'owner' | 'admin' | 'developer' | 'viewer';
  invitedBy: string;
  /** `<console url>/accept-invitation?token=...` */
  link: string;
  expiresAt: string;
}
