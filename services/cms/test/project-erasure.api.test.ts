import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createTestService, describeProjectErasure } from '@platform/testkit';
import { cmsService } from '../src';
import { ERASURE_TABLES } from '../src/project-erasure';

describeProjectErasure({
  service: 'cms',
  definition: cmsService,
  tables: ERASURE_TABLES,
  start: (bus) => createTestService(cmsService, { bus }),
  async seed(svc, project) {
    const post = (path: string, body: object) => request(svc.app).post(`/v1${path}`).set(project.headers).send(body);
    const hook = await post('/webhooks', { url: 'https://hooks.example.com/cms', events: ['content.created'] });
    expect(hook.status).toBe(201);
    const type = await post('/content-types', {
      name: `recipe-${randomBytes(3).toString('hex')}`,
      schema: { type: 'object', properties: { serves: { type: 'integer' } } },
    });
    expect(type.status).toBe(201);
    const item = await post('/content', {
      type: 'custom',
      contentType: type.body.name,
      title: 'Soup',
      content: '{"serves":2}',
    });
    expect(item.status).toBe(201);
    expect(
      (await request(svc.app).put(`/v1/content/${item.body.id}`).set(project.headers).send({ title: 'Stew' })).status,
    ).toBe(200);
  },
  seeded: ['webhooks', 'webhook_deliveries', 'content_types', 'content_items', 'content_revisions'],
  shared: ['news_items', 'news_feeds'],
});
