import { sha256Hex } from '@platform/tenancy';

/** Emails are compared trimmed and lowercased (RESOLUTIONS 3). */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * An email's key in login_failures: the SHA-256 of its normalized form. Most emails counted
 * there have no account (typos, guesses), and their addresses are not ours to keep.
 */
/**
 * What failures of a user's sign-ins are counted under: their e-mail, or for an anonymous user
 * (who has none) their id, which no e-mail can spell.
 */
export const lockoutSubject = (user: { id: string; email: string | null }): string =>
  user.email ?? `anonymous:${user.id}`;

export const emailKey = (email: string): string => sha256Hex(normalizeEmail(email));
