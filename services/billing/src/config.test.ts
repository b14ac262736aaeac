import { ConfigError } from '@platform/runtime';
import { loadBillingConfig } from './config';

describe('loadBillingConfig', () => {
  it("when STRIPE_API_BASE is set, then billing's own config carries it; unset, Stripe's public API is used", () => {
    expect(loadBillingConfig({ STRIPE_API_BASE: 'http://127.0.0.1:4010' }).stripeApiBase).toBe('http://127.0.0.1:4010');
    expect(loadBillingConfig({}).stripeApiBase).toBeUndefined();
  });

  it('when a setting is invalid, then a ConfigError names it', () => {
    expect(() => loadBillingConfig({ STRIPE_API_BASE: 'not a url' })).toThrow(ConfigError);
    expect(() => loadBillingConfig({ STRIPE_TIMEOUT_MS: '5' })).toThrow(/STRIPE_TIMEOUT_MS/);
  });
});
