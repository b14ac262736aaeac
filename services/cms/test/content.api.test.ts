import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { assertMatchesOpenApi, type TestProject, type TestService } from '@platform/testkit';
import { openapi } from '../src/openapi';
import { clientFor, startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let project: TestProject;
let api: Client;
let freshClient: () => Promise<Client>;

beforeAll(async () => {
  ({ svc, project, api, freshClient } = await startCms());
});

afterAll(async () => {
  await svc.close();
});

describe('POST /v1/content', () => {
  it('when only type, title and content are sent, then 201 with a draft, a generated slug and empty metadata', async () => {
    const res = await api.post('/v1/content', { body: { type: 'blog', title: 'First Post', content: 'Hello' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      tenantId: project.tenantId,
      projectId: project.projectId,
      type: 'blog',
      title: 'First Post',
      slug: 'first-post',
      content: 'Hello',
      status: 'draft',
      metadata: {},
      contentType: null,
      revision: 1,
      publishAt: null,
      unpublishAt: null,
      hasDraft: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
  });

  it('when status, slug and metadata are sent, then they are stored as given', async () => {
    const res = await api.post('/v1/content', {
      body: {
        type: 'page',
        title: 'About',
        content: '<p>About us</p>',
        slug: 'about-us',
        status: 'published',
        metadata: { seo: { description: 'Who we are' }, order: 3 },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      slug: 'about-us',
      status: 'published',
      metadata: { seo: { description: 'Who we are' }, order: 3 },
    });
    const fetched = await api.get(`/v1/content/${res.body.id}`);
    expect(fetched.body).toEqual(res.body);
  });

  it('when unknown fields are sent, then they are ignored and not stored', async () => {
    const res = await api.post('/v1/content', {
      body: { type: 'faq', title: 'Q?', content: 'A.', owner: 'x', id: 'mine' },
    });
    expect(res.status).toBe(201);
    expect(res.body.owner).toBeUndefined();
    expect(res.body.id).not.toBe('mine');
  });

  it.each([
    [{ title: 'x', content: 'y' }, 'type'],
    [{ type: 'news', title: 'x', content: 'y' }, 'type'],
    [{ type: 'blog', content: 'y' }, 'title'],
    [{ type: 'blog', title: '   ', content: 'y' }, 'title'],
    [{ type: 'blog', title: 'x' }, 'content'],
    [{ type: 'blog', title: 'x', content: 42 }, 'content'],
    [{ type: 'blog', title: 'x', content: 'y', status: 'live' }, 'status'],
    [{ type: 'blog', title: 'x', content: 'y', metadata: ['a'] }, 'metadata'],
    [{ type: 'blog', title: 'x', content: 'y', slug: 'Not A Slug' }, 'slug'],
    [{ type: 'blog', title: 'x', content: 'y', contentType: 'recipe' }, 'contentType'],
    [{ type: 'custom', title: 'x', content: '{}' }, 'contentType'],
  ])('when the body is %j, then 400 VALIDATION_ERROR names %s', async (body, field) => {
    const res = await api.post('/v1/content', { body: body });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('when the body is not valid JSON, then 400 VALIDATION_ERROR', async () => {
    const res = await request(svc.app)
      .post('/v1/content')
      .set(project.headers)
      .set('content-type', 'application/json')
      .send('{"type": "blog", ');
    assertMatchesOpenApi(openapi, res);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it.each([
    [{ type: 'blog', title: 'a\u0000b', content: '' }, 'title'],
    [{ type: 'blog', title: 'x', content: '', metadata: { deep: ['ok', 'n\u0000l'] } }, 'metadata.deep.1'],
  ])('when a text holds a NUL character (%j), then 400 naming %s, never a 500', async (body, path) => {
    const res = await api.post('/v1/content', { body: body });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path, message: 'contains a NUL character' }]);
  });

  it('when a query filter holds a NUL character, then 400', async () => {
    expect((await api.get('/v1/content?slug=a%00b')).status).toBe(400);
    expect((await api.get(`/v1/content/${encodeURIComponent('a\u0000')}`)).status).toBe(404);
  });

  it('when the key headers are missing, then 401 UNAUTHORIZED', async () => {
    const res = await clientFor(svc.app, {}).post('/v1/content', { body: { type: 'blog', title: 'x', content: 'y' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /v1/content', () => {
  it('when items exist, then summaries come newest first with total, limit 20 and offset 0', async () => {
    const client = await freshClient();
    for (let i = 1; i <= 3; i++)
      await client.post('/v1/content', {
        body: { type: 'blog', title: `Post ${i}`, content: 'body', metadata: { i } },
      });
    const res = await client.get('/v1/content');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(res.body.content.map((c: { title: string }) => c.title)).toEqual(['Post 3', 'Post 2', 'Post 1']);
    expect(Object.keys(res.body.content[0]).sort()).toEqual([
      'createdAt',
      'id',
      'publishAt',
      'slug',
      'status',
      'title',
      'type',
      'unpublishAt',
    ]);
  });

  it('when type, status and slug filters are given, then only matching items are listed and counted', async () => {
    const client = await freshClient();
    await client.post('/v1/content', { body: { type: 'blog', title: 'Welcome', content: '', status: 'published' } });
    await client.post('/v1/content', { body: { type: 'blog', title: 'Draft', content: '' } });
    await client.post('/v1/content', { body: { type: 'faq', title: 'Welcome', content: '', status: 'published' } });
    const blogs = await client.get('/v1/content?type=blog');
    expect(blogs.body.total).toBe(2);
    const published = await client.get('/v1/content?status=published');
    expect(published.body.content.map((c: { type: string }) => c.type).sort()).toEqual(['blog', 'faq']);
    const bySlug = await client.get('/v1/content?slug=welcome&type=faq');
    expect(bySlug.body.total).toBe(1);
    expect(bySlug.body.content[0]).toMatchObject({ type: 'faq', slug: 'welcome' });
    const none = await client.get('/v1/content?slug=nothing-here');
    expect(none.body).toMatchObject({ content: [], total: 0 });
  });

  it('when limit and offset are given, then that page is returned and total counts all', async () => {
    const client = await freshClient();
    for (let i = 1; i <= 5; i++)
      await client.post('/v1/content', { body: { type: 'page', title: `Page ${i}`, content: '' } });
    const res = await client.get('/v1/content?limit=2&offset=1');
    expect(res.body).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect(res.body.content.map((c: { title: string }) => c.title)).toEqual(['Page 4', 'Page 3']);
  });

  it.each(['limit=101', 'limit=0', 'limit=-1', 'limit=2.5', 'offset=-1', 'type=news', 'status=live'])(
    'when the query is %s, then 400',
    async (query) => {
      const res = await api.get(`/v1/content?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    },
  );

  it('when limit is 100, then it is accepted', async () => {
    expect((await api.get('/v1/content?limit=100')).status).toBe(200);
  });
});

describe('GET, PUT and DELETE /v1/content/{id}', () => {
  it('when only some fields are sent, then only those change', async () => {
    const item = (
      await api.post('/v1/content', {
        body: {
          type: 'blog',
          title: 'Partial',
          content: 'old body',
          metadata: { a: 1 },
          status: 'draft',
        },
      })
    ).body;
    const res = await api.put(`/v1/content/${item.id}`, { body: { content: 'new body' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Partial',
      content: 'new body',
      metadata: { a: 1 },
      status: 'draft',
      slug: 'partial',
    });
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(item.updatedAt).getTime());
    const meta = await api.put(`/v1/content/${item.id}`, { body: { metadata: { b: 2 } } });
    expect(meta.body).toMatchObject({ content: 'new body', metadata: { b: 2 } });
  });

  it('when an empty body is sent, then the item is returned unchanged', async () => {
    const item = (await api.post('/v1/content', { body: { type: 'blog', title: 'Unchanged', content: 'x' } })).body;
    const res = await api.put(`/v1/content/${item.id}`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(item);
  });

  it('when type is sent on update, then it is ignored', async () => {
    const item = (await api.post('/v1/content', { body: { type: 'blog', title: 'Fixed Type', content: 'x' } })).body;
    const res = await api.put(`/v1/content/${item.id}`, { body: { type: 'page', title: 'Still Blog' } });
    expect(res.body).toMatchObject({ type: 'blog', title: 'Still Blog' });
  });

  it('when the status moves through every pair of states, then each move is accepted', async () => {
    const item = (await api.post('/v1/content', { body: { type: 'page', title: 'Lifecycle', content: '' } })).body;
    const moves = ['published', 'draft', 'archived', 'published', 'archived', 'draft', 'published'];
    for (const status of moves) {
      const res = await api.put(`/v1/content/${item.id}`, { body: { status } });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(status);
    }
  });

  it.each([{ status: 'live' }, { title: '' }, { metadata: 'x' }, { slug: 'Bad Slug' }, { content: null }])(
    'when the update is %j, then 400',
    async (body) => {
      const item = (await api.post('/v1/content', { body: { type: 'blog', title: 'Invalid Update', content: '' } }))
        .body;
      expect((await api.put(`/v1/content/${item.id}`, { body: body })).status).toBe(400);
    },
  );

  it('when an item is deleted, then 204 and it is gone for good', async () => {
    const item = (await api.post('/v1/content', { body: { type: 'faq', title: 'Temporary', content: '' } })).body;
    const res = await api.delete(`/v1/content/${item.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.get(`/v1/content/${item.id}`)).status).toBe(404);
    expect((await api.put(`/v1/content/${item.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await api.delete(`/v1/content/${item.id}`)).status).toBe(404);
  });

  it('when a deleted slug is reused, then the new item gets the plain slug', async () => {
    const item = (await api.post('/v1/content', { body: { type: 'faq', title: 'Recycled', content: '' } })).body;
    await api.delete(`/v1/content/${item.id}`);
    expect((await api.post('/v1/content', { body: { type: 'faq', title: 'Recycled', content: '' } })).body.slug).toBe(
      'recycled',
    );
  });

  it.each(['not-a-uuid', randomUUID()])('when the id is %s, then 404 NOT_FOUND on get, put and delete', async (id) => {
    for (const res of [
      await api.get(`/v1/content/${id}`),
      await api.put(`/v1/content/${id}`, { body: { title: 'x' } }),
      await api.delete(`/v1/content/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('isolation between projects', () => {
  it("when another project's keys ask for this project's item, then 404 on get, put and delete, and nothing changes", async () => {
    const item = (
      await api.post('/v1/content', { body: { type: 'blog', title: 'Private', content: 'secret', slug: 'private' } })
    ).body;
    const other = await freshClient();
    expect((await other.get(`/v1/content/${item.id}`)).status).toBe(404);
    expect((await other.put(`/v1/content/${item.id}`, { body: { title: 'Hacked' } })).status).toBe(404);
    expect((await other.delete(`/v1/content/${item.id}`)).status).toBe(404);
    expect((await api.get(`/v1/content/${item.id}`)).body).toMatchObject({ title: 'Private', content: 'secret' });
  });

  it("when another project lists or looks up by slug, then this project's items do not show", async () => {
    await api.post('/v1/content', { body: { type: 'blog', title: 'Only Mine', content: '' } });
    const other = await freshClient();
    const list = await other.get('/v1/content');
    expect(list.body).toMatchObject({ content: [], total: 0 });
    expect((await other.get('/v1/content?slug=only-mine')).body.total).toBe(0);
  });
});

describe('GET /v1/openapi.json', () => {
  it('when the document is fetched, then every CMS endpoint is described with the key headers', async () => {
    const res = await request(svc.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    const operations = Object.entries(res.body.paths as Record<string, Record<string, { security?: unknown }>>).flatMap(
      ([path, item]) =>
        Object.entries(item)
          .filter(([method]) => method !== 'parameters')
          .map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.security]),
    );
    expect(operations.map(([name]) => name).sort()).toEqual(
      [
        'POST /content',
        'GET /content',
        'GET /content/{content_id}',
        'PUT /content/{content_id}',
        'DELETE /content/{content_id}',
        'POST /content/{content_id}/publish',
        'DELETE /content/{content_id}/draft',
        'GET /content/{content_id}/revisions',
        'GET /content/{content_id}/revisions/{number}',
        'POST /content/{content_id}/revisions/{number}/restore',
        'POST /webhooks',
        'GET /webhooks',
        'DELETE /webhooks/{webhook_id}',
        'GET /webhooks/{webhook_id}/deliveries',
        'POST /webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
        'POST /content-types',
        'GET /content-types',
        'GET /content-types/{content_type_id}',
        'PUT /content-types/{content_type_id}',
        'GET /news',
        'GET /news/{news_id}',
      ].sort(),
    );
    for (const [, security] of operations)
      expect(security).toEqual([{ apiKey: [], secretKey: [], tenantId: [], projectId: [] }]);
  });
});
