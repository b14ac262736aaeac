import type { ApiClient } from '@platform/testkit';
import { configuredProject, startBilling, type BillingTest } from './support/billing-test-service';

let t: BillingTest;
let call: ApiClient['call'];

beforeAll(async () => {
  // Long enough for the other project's call on a loaded machine, well inside the bound below.
  t = await startBilling({ STRIPE_TIMEOUT_MS: '1500' });
  call = t.api.call;
});
afterAll(() => t.close());

describe('Stripe calls have an overall deadline', () => {
  it("when a project's Stripe answers a byte at a time, then its call fails with 502 within the deadline and another project's call succeeds meanwhile", async () => {
    const slow = await configuredProject(t);
    const other = await configuredProject(t);
    t.stripe.trickling.add(slow.secretKey);
    const started = Date.now();
    const [trickled, fine] = await Promise.all([
      call('get', '/pay/account/status?environment=test', { headers: slow.project.headers }),
      call('get', '/pay/account/status?environment=test', { headers: other.project.headers }),
    ]);
    expect(fine.status).toBe(200);
    expect(trickled.status).toBe(502);
    expect(trickled.body).toMatchObject({ success: false, error: { code: 'VENDOR_ERROR' } });
    // The deadline, not an idle timeout (the answer never pauses for long).
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
