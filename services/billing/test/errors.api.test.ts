import type { ApiClient } from '@platform/testkit';
import { configuredProject, signedIn, startBilling, type BillingTest } from './support/billing-test-service';

let t: BillingTest;
let call: ApiClient['call'];

beforeAll(async () => {
  t = await startBilling();
  call = t.api.call;
});
afterAll(() => t.close());

type Method = 'get' | 'put' | 'post' | 'delete';
const customerPaths: [Method, string][] = [
  ['get', '/pay/customers/cus_unknown'],
  ['put', '/pay/customers/cus_unknown'],
  ['delete', '/pay/customers/cus_unknown'],
];

describe('the error answers every operation documents', () => {
  it.each<[Method, string]>([
    ['put', '/pay/config'],
    ['post', '/pay/customers'],
    ['get', '/pay/account/status'],
    ...customerPaths,
  ])('when %s %s comes without the key headers, then 401', async (method, path) => {
    const res = await call(method, path, { body: method === 'get' || method === 'delete' ? undefined : { name: 'x' } });
    expect(res.status).toBe(401);
  });

  it.each<[Method, string]>([['post', '/pay/customers'], ...customerPaths])(
    'when %s %s is asked of a project without Stripe keys, then 403 PROVIDER_NOT_CONFIGURED',
    async (method, path) => {
      const project = await t.svc.createProject();
      const res = await call(method, path, {
        headers: project.headers,
        body: method === 'get' || method === 'delete' ? undefined : { name: 'x' },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    },
  );

  it.each<[Method, string]>([
    ['get', '/pay/config?environment=prod'],
    ['get', '/pay/account/status?environment=prod'],
    ['get', '/pay/customers/not.an-id'],
    ['delete', '/pay/customers/not.an-id'],
  ])('when %s %s names an invalid environment or id, then 400', async (method, path) => {
    const { project } = await configuredProject(t);
    const res = await call(method, path, { headers: project.headers });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it.each<[string]>([['/pay/checkout/session/not.an-id'], ['/pay/payment/intent/not.an-id']])(
    "when GET %s names an id that cannot be Stripe's, then 400",
    async (path) => {
      const { project } = await configuredProject(t);
      const res = await call('get', path, { headers: signedIn(project).headers });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    },
  );
});
