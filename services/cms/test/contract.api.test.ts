import { randomUUID } from 'node:crypto';
import type { HttpMethod } from '@platform/testkit';
import { openapi } from '../src/openapi';
import { clientFor, startCms, type CmsTest } from './support/cms-test-service';

let cms: CmsTest;

beforeAll(async () => {
  cms = await startCms();
});

afterAll(async () => {
  await cms.svc.close();
});

const documented = Object.entries(openapi.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((method) => method !== 'parameters')
    .map((method) => [method as HttpMethod, path] as const),
);

describe('the key headers on every operation', () => {
  it.each(documented)('when %s %s is called without the key headers, then 401 UNAUTHORIZED', async (method, path) => {
    const concrete = path.replace(/\{number\}/g, '1').replace(/\{[a-z_]+\}/g, () => randomUUID());
    const res = await clientFor(cms.svc.app, {}).call(method, concrete);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('paging of an item’s history and a webhook’s deliveries', () => {
  it('when the revisions are asked for with limit 0, then 400 VALIDATION_ERROR', async () => {
    const item = await cms.api.post('/v1/content', { body: { type: 'blog', title: 'Paged', content: 'x' } });
    expect(item.status).toBe(201);
    const res = await cms.api.get(`/v1/content/${item.body.id}/revisions?limit=0`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the deliveries are asked for with limit 0, then 400 VALIDATION_ERROR', async () => {
    const webhook = await cms.api.post('/v1/webhooks', {
      body: { url: 'https://example.com/hook', events: ['content.created'] },
    });
    expect(webhook.status).toBe(201);
    const res = await cms.api.get(`/v1/webhooks/${webhook.body.id}/deliveries?limit=0`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});
