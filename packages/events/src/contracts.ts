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
export interface AuthEmailData {
  userId: string;
  email: string;
  /** `<appUrl>/verify-email?token=...` or `<appUrl>/reset-password?token=...` */
  link: string;
  expiresAt: string;
}

/** `auth.user.registered`: `verification` is present when the project requires email verification. */
export interface UserRegisteredData {
  userId: string;
  email: string;
  verification?: { link: string; expiresAt: string };
}

/** `auth.verification.requested` and `auth.password-reset.requested`. */
export type VerificationRequestedData = AuthEmailData;
export type PasswordResetRequestedData = AuthEmailData;
