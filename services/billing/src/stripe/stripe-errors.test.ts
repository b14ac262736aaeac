import Stripe from 'stripe';
import { AppError } from '@platform/tenancy';
import { fromStripeError, scrubKeys } from './stripe-errors';
import { connectionOf } from './stripe-clients';

const raw = (type: string, extra: Record<string, unknown> = {}) =>
  Stripe.errors.StripeError.generate({
    type,
    message: 'Stripe says no for sk_test_abc123',
    ...extra,
  } as Stripe.StripeRawError);

const mapped = (err: unknown) => fromStripeError(err, 'test') as AppError;

describe('fromStripeError', () => {
  it("when Stripe rejects the key, then 403 PROVIDER_NOT_CONFIGURED without Stripe's message", () => {
    const err = mapped(raw('authentication_error'));
    expect([err.status, err.code]).toEqual([403, 'PROVIDER_NOT_CONFIGURED']);
    expect(err.message).not.toContain('sk_test');
  });

  it('when the object in the path is missing, then 404; when a body field is wrong, then 400 naming it', () => {
    expect(mapped(raw('invalid_request_error', { code: 'resource_missing', statusCode: 404 })).status).toBe(404);
    const bad = mapped(
      raw('invalid_request_error', { code: 'resource_missing', statusCode: 400, param: 'line_items[0][price]' }),
    );
    expect([bad.status, bad.code, bad.details]).toEqual([
      400,
      'VALIDATION_ERROR',
      [{ path: 'line_items[0][price]', message: expect.any(String) }],
    ]);
  });

  it('when Stripe fails or cannot be reached, then 500 or 502 VENDOR_ERROR with keys scrubbed', () => {
    const api = mapped(raw('api_error'));
    expect([api.status, api.code]).toEqual([500, 'VENDOR_ERROR']);
    expect(api.message).toContain('[redacted]');
    expect(api.message).not.toContain('sk_test_abc123');
    const down = mapped(
      new Stripe.errors.StripeConnectionError({ type: 'api_error', message: 'connect ECONNREFUSED' }),
    );
    expect([down.status, down.code]).toEqual([502, 'VENDOR_ERROR']);
  });

  it("when the error is not Stripe's, then it passes through unchanged", () => {
    const err = new Error('bug');
    expect(fromStripeError(err, 'live')).toBe(err);
  });

  it('when a message quotes keys of any kind, then they are scrubbed', () => {
    expect(scrubKeys('keys rk_live_x1 and whsec_abc and sk_test_****1234')).toBe(
      'keys [redacted] and [redacted] and [redacted]',
    );
  });
});

describe('connectionOf', () => {
  it('when STRIPE_API_BASE is set, then the SDK is pointed at its host, port and protocol', () => {
    expect(connectionOf('http://127.0.0.1:4010')).toEqual({ host: '127.0.0.1', port: 4010, protocol: 'http' });
    expect(connectionOf('https://stripe.internal')).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(connectionOf(undefined)).toEqual({});
  });
});
