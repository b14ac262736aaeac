import type { Route } from '../providers/providers.service';
import { VendorSendError } from '../transports/transport';
import { failsOver, ProviderCooldowns } from './failover';

const route = (providerId: string) => ({ providerId }) as Route;

describe('failover rules', () => {
  it('when a provider cannot be reached, answers 5xx, refuses credentials or throttles, then the next one is tried', () => {
    expect(failsOver(new VendorSendError('x', true))).toBe(true);
    for (const status of [500, 502, 503, 401, 403, 408, 429]) {
      expect(failsOver(new VendorSendError('x', false, status))).toBe(true);
    }
  });

  it('when a provider refuses the message itself (other 4xx), then no other provider is tried', () => {
    for (const status of [400, 404, 413, 422]) expect(failsOver(new VendorSendError('x', false, status))).toBe(false);
  });
});

describe('provider cool-down', () => {
  let now = 1_000_000;
  const cooldowns = new ProviderCooldowns(3, 60_000, () => now);
  const a = route('a');
  const b = route('b');

  it('when a provider fails fewer times than the threshold, then it stays in the order', () => {
    cooldowns.failed('a');
    cooldowns.failed('a');
    expect(cooldowns.order([a, b])).toEqual([a, b]);
  });

  it('when it reaches the threshold, then it is left out until the cool-down ends, and then tried again', () => {
    cooldowns.failed('a');
    expect(cooldowns.order([a, b])).toEqual([b]);
    now += 59_999;
    expect(cooldowns.order([a, b])).toEqual([b]);
    now += 1;
    expect(cooldowns.order([a, b])).toEqual([a, b]);
  });

  it('when a success comes between failures, then the count starts again', () => {
    cooldowns.failed('b');
    cooldowns.failed('b');
    cooldowns.succeeded('b');
    cooldowns.failed('b');
    expect(cooldowns.coolingDown('b')).toBe(false);
  });

  it('when every provider is cooling down, then all are tried anyway, in their order', () => {
    for (let i = 0; i < 3; i++) {
      cooldowns.failed('a');
      cooldowns.failed('b');
    }
    expect(cooldowns.order([a, b])).toEqual([a, b]);
  });
});
