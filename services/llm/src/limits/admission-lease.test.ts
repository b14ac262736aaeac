import { drawLease, leaseReturn, runningLow, takeFromLease } from './admission-lease';
import type { AdmissionState } from './limits.mapper';

const minute = new Date('2026-11-25T15:40:00.000Z');

function stateOf(overrides: Partial<AdmissionState> = {}): AdmissionState {
  return {
    monthlyBudgetUsd: null,
    requestsPerMinute: null,
    tokensPerMinute: null,
    fallbacks: [],
    month: new Date('2026-11-01T00:00:00.000Z'),
    spentUsd: 0,
    reservedUsd: 0,
    windowStart: minute,
    windowRequests: 0,
    windowTokens: 0,
    now: new Date(minute.getTime() + 10_000),
    ...overrides,
  };
}

const wish = { slots: 1000, usdPerRequest: 0.01, ttlMs: 1000 };
const costs = (usd: number) => () => usd;

describe('drawLease', () => {
  it('when traffic asks for more than is left, then the lease takes a quarter of what is left under each limit', () => {
    const state = stateOf({ requestsPerMinute: 100, monthlyBudgetUsd: 10 });
    const lease = drawLease(state, 2, 20, wish, 0)!;
    expect(lease.slots).toBe(20); // (100 - 20) / 4
    expect(lease.usd).toBe(2); // (10 - 2) / 4
    expect(lease.slotsInRow).toBe(20);
  });

  it('when a quarter of the budget left cannot hold one typical request, then no lease is drawn', () => {
    expect(drawLease(stateOf({ monthlyBudgetUsd: 1 }), 0.97, 0, wish, 0)).toBeUndefined();
    expect(drawLease(stateOf({ requestsPerMinute: 10 }), 0, 7, wish, 0)).toBeUndefined();
  });

  it('when the database’s minute ends before the TTL, then the lease ends before the minute does', () => {
    const state = stateOf({ now: new Date(minute.getTime() + 59_500) });
    const lease = drawLease(state, 0, 0, wish, 1_000)!;
    expect(lease.expiresAt).toBeLessThan(1_000 + 500);
    expect(drawLease(stateOf({ now: new Date(minute.getTime() + 59_950) }), 0, 0, wish, 0)).toBeUndefined();
  });

  it('when no limit is set, then the lease is unbounded, reserves nothing and counts what it admitted when it ends', () => {
    const lease = drawLease(stateOf(), 0, 0, wish, 0)!;
    expect(lease.slots).toBe(Infinity);
    expect(lease.slotsInRow).toBe(0);
    expect(takeFromLease(lease, costs(0.5), 1)).toEqual({ defaults: [], reservedUsd: 0 });
    expect(takeFromLease(lease, costs(0.5), 1)).toBeDefined();
    expect(runningLow(lease, 1)).toBe(false);
    expect(leaseReturn(lease)).toMatchObject({ releasedUsd: 0, window: { returnedRequests: -2 } });
  });
});

describe('takeFromLease', () => {
  it('when a request’s worst case does not fit what is left, then it is not admitted from the lease', () => {
    const lease = drawLease(stateOf({ monthlyBudgetUsd: 100 }), 0, 0, { ...wish, slots: 3 }, 0)!;
    expect(lease.usd).toBe(0.03);
    expect(takeFromLease(lease, costs(0.02), 1)).toEqual({ defaults: [], reservedUsd: 0.02 });
    expect(takeFromLease(lease, costs(0.02), 1)).toBeUndefined();
    expect(takeFromLease(lease, costs(0.01), 1)).toBeDefined();
    expect(leaseReturn(lease)).toMatchObject({ releasedUsd: 0, window: { returnedRequests: -2 } }); // its slots were unbounded
  });

  it('when the minute’s tokens reach tokensPerMinute with those settled here since, then nothing more is admitted from it', () => {
    const lease = drawLease(stateOf({ tokensPerMinute: 100, windowTokens: 60 }), 0, 0, wish, 0)!;
    expect(takeFromLease(lease, costs(0), 1)).toBeDefined();
    lease.tokensSince = 40;
    expect(takeFromLease(lease, costs(0), 1)).toBeUndefined();
  });

  it('when the lease has expired, then nothing is admitted from it', () => {
    const lease = drawLease(stateOf(), 0, 0, wish, 0)!;
    expect(takeFromLease(lease, costs(0), lease.expiresAt)).toBeUndefined();
  });
});

describe('runningLow', () => {
  it('when three quarters of its slots are used, then the lease is redrawn', () => {
    const lease = drawLease(stateOf({ requestsPerMinute: 1000 }), 0, 0, { ...wish, slots: 8 }, 0)!;
    for (let i = 0; i < 5; i++) takeFromLease(lease, costs(0), 1);
    expect(runningLow(lease, 1)).toBe(false);
    takeFromLease(lease, costs(0), 1);
    expect(runningLow(lease, 1)).toBe(true);
  });
});
