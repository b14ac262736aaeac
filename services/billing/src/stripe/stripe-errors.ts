import Stripe from 'stripe';
import { AppError, errors } from '@platform/tenancy';
import type { Environment } from '../shared/environment';

const KEY_PATTERN = /\b(sk|rk|pk|whsec)_[A-Za-z0-9_*]+/g;

/** Stripe's messages may quote a (masked) key; ours never do. */
export const scrubKeys = (message: string): string => message.replace(KEY_PATTERN, '[redacted]');

/** A Stripe SDK error as one of our envelope's codes, with Stripe's message and never the key. */
export function fromStripeError(err: unknown, environment: Environment): unknown {
  if (!(err instanceof Stripe.errors.StripeError)) return err;
  const message = scrubKeys(err.message || 'Stripe request failed');
  switch (err.type) {
    case 'StripeAuthenticationError':
      return new AppError(
        'PROVIDER_NOT_CONFIGURED',
        `Stripe rejected the secret key configured for the ${environment} environment`,
        { cause: err },
      );
    case 'StripePermissionError':
      return new AppError('PROVIDER_NOT_CONFIGURED', `The configured Stripe key may not do this: ${message}`, {
        cause: err,
      });
    case 'StripeInvalidRequestError':
      // 404 is the object in the path; a missing object named in the body (a price) is the caller's 400.
      if (err.statusCode === 404) return new AppError('NOT_FOUND', message, { cause: err });
      return new AppError('VALIDATION_ERROR', message, {
        cause: err,
        details: err.param ? [{ path: err.param, message }] : undefined,
      });
    case 'StripeCardError':
      return new AppError('VALIDATION_ERROR', message, { cause: err });
    case 'StripeIdempotencyError':
      return new AppError('CONFLICT', message, { cause: err });
    case 'StripeRateLimitError':
      return errors.rateLimited(`Stripe is rate limiting this account: ${message}`, 1, { cause: err });
    case 'StripeConnectionError':
      return errors.vendorUnreachable('Stripe could not be reached', err);
    default:
      return errors.vendor(`Stripe error: ${message}`, err);
  }
}

/** Runs one Stripe call and turns its failure into our error. */
export async function callStripe<T>(environment: Environment, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromStripeError(err, environment);
  }
}
