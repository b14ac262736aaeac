import { AppError } from '@platform/tenancy';

/** RESOLUTIONS: 5 consecutive failures lock the email for 15 minutes. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MS = 15 * 60_000;

/**
 * A run of failures ends when no failure came for as long as a lock lasts: the counter of an
 * email nobody tried for 15 minutes starts again at zero, which is what lets such rows be pruned.
 */
export const FAILURE_WINDOW_MS = LOCKOUT_MS;

export const isLocked = (until: Date | null): until is Date => until !== null && until.getTime() > Date.now();

/** 423 with the seconds left; the same answer whether or not the email has an account. */
export function accountLocked(until: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new AppError('ACCOUNT_LOCKED', 'Account is temporarily locked after too many failed logins', {
    headers: { 'Retry-After': String(seconds) },
  });
}
