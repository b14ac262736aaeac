/**
 * Events that cross services, by routing key, with their `data` payloads (version 1).
 * Producers and consumers both import these names and types.
 */
export const AUTH_EVENTS = {
  userRegistered: 'auth.user.registered',
  verificationRequested: 'auth.verification.requested',
  passwordResetRequested: 'auth.password-reset.requested',
} as const;

/**
 * Events whose data carries a usable secret (a single-use token in a link): the outbox deletes
 * such a row as soon as the broker has it instead of keeping it for the retention period.
 */
export const SECRET_BEARING_EVENTS: ReadonlySet<string> = new Set(Object.values(AUTH_EVENTS));

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
