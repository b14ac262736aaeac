import type { TestService } from '@platform/testkit';
import { startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let api: Client;
let freshClient: () => Promise<Client>;

beforeAll(async () => {
  ({ svc, api, freshClient } = await startCms());
});

afterAll(async () => {
  await svc.close();
});

const create = async (client: Client, body: Record<string, unknown> = {}) =>
  (await client.post('/v1/content', { body: { type: 'blog', title: 'Original', content: 'v1', ...body } })).body as {
    id: string;
  };

describe('content revisions', () => {
  it('when an item is created, updated, has its status changed and is restored, then each change is a revision, newest first', async () => {
    const { id } = await create(api);
    await api.put(`/v1/content/${id}`, { body: { content: 'v2', metadata: { tag: 'x' } } });
    await api.put(`/v1/content/${id}`, { body: { status: 'published' } });
    await api.put(`/v1/content/${id}`, { body: { status: 'archived' } });
    const restored = await api.post(`/v1/content/${id}/revisions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ content: 'v1', status: 'draft', metadata: {}, revision: 5 });

    const res = await api.get(`/v1/content/${id}/revisions`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, limit: 20, offset: 0 });
    expect(
      res.body.revisions.map((r: { number: number; change: string; status: string; content: string }) => [
        r.number,
        r.change,
        r.status,
        r.content,
      ]),
    ).toEqual([
      [5, 'restored', 'draft', 'v1'],
      [4, 'unpublished', 'archived', 'v2'],
      [3, 'published', 'published', 'v2'],
      [2, 'updated', 'draft', 'v2'],
      [1, 'created', 'draft', 'v1'],
    ]);
    expect((await api.get(`/v1/content/${id}`)).body.content).toBe('v1');
  });

  it('when a page is asked for, then limit and offset pick from newest first', async () => {
    const { id } = await create(api);
    for (const content of ['a', 'b', 'c']) await api.put(`/v1/content/${id}`, { body: { content } });
    const res = await api.get(`/v1/content/${id}/revisions?limit=2&offset=1`);
    expect(res.body.revisions.map((r: { number: number }) => r.number)).toEqual([3, 2]);
    expect(res.body.total).toBe(4);
  });

  it('when one revision is fetched, then it holds the fields the item had then; an unknown number is 404', async () => {
    const { id } = await create(api, { metadata: { seo: 'first' } });
    await api.put(`/v1/content/${id}`, { body: { title: 'Renamed' } });
    const first = await api.get(`/v1/content/${id}/revisions/1`);
    expect(first.body).toEqual({
      contentId: id,
      number: 1,
      change: 'created',
      title: 'Original',
      slug: expect.any(String),
      content: 'v1',
      status: 'draft',
      metadata: { seo: 'first' },
      createdAt: expect.any(String),
    });
    expect((await api.get(`/v1/content/${id}/revisions/9`)).status).toBe(404);
    expect((await api.get(`/v1/content/${id}/revisions/abc`)).status).toBe(404);
    expect((await api.post(`/v1/content/${id}/revisions/0/restore`)).status).toBe(404);
  });

  it('when a PUT changes nothing, or only saves a draft, then no revision is written', async () => {
    const { id } = await create(api, { status: 'published' });
    await api.put(`/v1/content/${id}`, { body: {} });
    await api.put(`/v1/content/${id}?draft=true`, { body: { content: 'pending' } });
    expect((await api.get(`/v1/content/${id}/revisions`)).body.total).toBe(1);
  });

  it("when a restored revision's slug now belongs to another item, then 409 and the item is unchanged", async () => {
    const { id } = await create(api, { slug: 'taken-later' });
    await api.put(`/v1/content/${id}`, { body: { slug: 'moved-away' } });
    await create(api, { slug: 'taken-later' });
    const res = await api.post(`/v1/content/${id}/revisions/1/restore`);
    expect(res.status).toBe(409);
    expect((await api.get(`/v1/content/${id}`)).body).toMatchObject({ slug: 'moved-away', revision: 2 });
  });

  it("when another project asks for an item's revisions or restores one, then 404 and nothing changes", async () => {
    const { id } = await create(api);
    await api.put(`/v1/content/${id}`, { body: { content: 'mine' } });
    const other = await freshClient();
    expect((await other.get(`/v1/content/${id}/revisions`)).status).toBe(404);
    expect((await other.get(`/v1/content/${id}/revisions/1`)).status).toBe(404);
    expect((await other.post(`/v1/content/${id}/revisions/1/restore`)).status).toBe(404);
    expect((await api.get(`/v1/content/${id}`)).body).toMatchObject({ content: 'mine', revision: 2 });
  });

  it('when an item is deleted, then its revisions go with it', async () => {
    const { id } = await create(api);
    await api.delete(`/v1/content/${id}`);
    expect((await api.get(`/v1/content/${id}/revisions`)).status).toBe(404);
    expect(await svc.deps.db('content_revisions').where({ content_id: id }).count()).toEqual([{ count: 0 }]);
  });
});
