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

const published = async (client: Client, body: Record<string, unknown> = {}) =>
  (
    await client.post('/v1/content', {
      body: {
        type: 'page',
        title: 'Pricing',
        content: 'old prices',
        status: 'published',
        ...body,
      },
    })
  ).body as { id: string; slug: string };

describe('drafts of published items', () => {
  it('when a draft is saved, then readers keep the published version and ?version=draft shows the draft', async () => {
    const { id } = await published(api);
    const saved = await api.put(`/v1/content/${id}?draft=true`, {
      body: { content: 'new prices', title: 'Pricing 2027' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ content: 'new prices', title: 'Pricing 2027', hasDraft: true });

    const live = await api.get(`/v1/content/${id}`);
    expect(live.body).toMatchObject({ content: 'old prices', title: 'Pricing', status: 'published', hasDraft: true });
    const listed = await api.get(`/v1/content?slug=${live.body.slug}&type=page`);
    expect(listed.body.content[0].title).toBe('Pricing');
    const draft = await api.get(`/v1/content/${id}?version=draft`);
    expect(draft.body).toMatchObject({ content: 'new prices', title: 'Pricing 2027', status: 'published' });
  });

  it('when a second draft change is saved, then it adds to the pending draft rather than to the live item', async () => {
    const { id } = await published(api);
    await api.put(`/v1/content/${id}?draft=true`, { body: { content: 'step 1' } });
    await api.put(`/v1/content/${id}?draft=true`, { body: { metadata: { step: 2 } } });
    const draft = await api.get(`/v1/content/${id}?version=draft`);
    expect(draft.body).toMatchObject({ content: 'step 1', metadata: { step: 2 } });
  });

  it('when the draft is published, then it is live, the draft is gone and a revision records it', async () => {
    const { id } = await published(api);
    await api.put(`/v1/content/${id}?draft=true`, { body: { content: 'new prices' } });
    const res = await api.post(`/v1/content/${id}/publish`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: 'new prices', status: 'published', hasDraft: false, revision: 2 });
    expect((await api.get(`/v1/content/${id}`)).body.content).toBe('new prices');
    const revisions = await api.get(`/v1/content/${id}/revisions`);
    expect(revisions.body.revisions[0]).toMatchObject({ number: 2, change: 'updated', content: 'new prices' });
  });

  it('when the draft is discarded, then the live item is untouched and a second discard is 404', async () => {
    const { id } = await published(api);
    await api.put(`/v1/content/${id}?draft=true`, { body: { content: 'never mind' } });
    expect((await api.delete(`/v1/content/${id}/draft`)).status).toBe(204);
    expect((await api.get(`/v1/content/${id}?version=draft`)).body).toMatchObject({
      content: 'old prices',
      hasDraft: false,
    });
    expect((await api.delete(`/v1/content/${id}/draft`)).status).toBe(404);
  });

  it('when a published item has no draft, then publish is 409; an unpublished one is published by it', async () => {
    const { id } = await published(api);
    expect((await api.post(`/v1/content/${id}/publish`)).status).toBe(409);
    const draftItem = await api.post('/v1/content', { body: { type: 'blog', title: 'Soon', content: 'x' } });
    const res = await api.post(`/v1/content/${draftItem.body.id}/publish`);
    expect(res.body).toMatchObject({ status: 'published', revision: 2 });
  });

  it('when the item is not published, then ?draft=true is an ordinary update', async () => {
    const item = await api.post('/v1/content', { body: { type: 'blog', title: 'Unpublished', content: 'a' } });
    const res = await api.put(`/v1/content/${item.body.id}?draft=true`, { body: { content: 'b' } });
    expect(res.body).toMatchObject({ content: 'b', hasDraft: false, revision: 2 });
  });

  it('when a draft sends a status, then 400: a draft is published with POST /publish', async () => {
    const { id } = await published(api);
    const res = await api.put(`/v1/content/${id}?draft=true`, { body: { status: 'archived' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('status');
  });

  it('when version or draft are not one of their values, then 400', async () => {
    const { id } = await published(api);
    expect((await api.get(`/v1/content/${id}?version=next`)).status).toBe(400);
    expect((await api.put(`/v1/content/${id}?draft=perhaps`, { body: { content: 'x' } })).status).toBe(400);
  });

  it("when a custom item's draft does not match its type's schema, then 400 and no draft is stored", async () => {
    await api.post('/v1/content-types', {
      body: {
        name: 'product',
        schema: { type: 'object', required: ['price'], properties: { price: { type: 'number' } } },
      },
    });
    const item = await api.post('/v1/content', {
      body: {
        type: 'custom',
        contentType: 'product',
        title: 'Lamp',
        content: '{"price": 10}',
        status: 'published',
      },
    });
    const bad = await api.put(`/v1/content/${item.body.id}?draft=true`, { body: { content: '{"price": "ten"}' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('content.price');
    expect((await api.get(`/v1/content/${item.body.id}`)).body.hasDraft).toBe(false);
    const good = await api.put(`/v1/content/${item.body.id}?draft=true`, { body: { content: '{"price": 12}' } });
    expect(good.body.hasDraft).toBe(true);
  });

  it("when the draft's slug was taken meanwhile, then publishing it is 409 and the draft stays", async () => {
    const { id } = await published(api, { slug: 'draft-slug-source' });
    await api.put(`/v1/content/${id}?draft=true`, { body: { slug: 'wanted-slug' } });
    await published(api, { slug: 'wanted-slug' });
    expect((await api.post(`/v1/content/${id}/publish`)).status).toBe(409);
    expect((await api.get(`/v1/content/${id}`)).body).toMatchObject({ slug: 'draft-slug-source', hasDraft: true });
  });

  it("when another project reads, publishes or discards an item's draft, then 404", async () => {
    const { id } = await published(api);
    await api.put(`/v1/content/${id}?draft=true`, { body: { content: 'secret draft' } });
    const other = await freshClient();
    expect((await other.get(`/v1/content/${id}?version=draft`)).status).toBe(404);
    expect((await other.put(`/v1/content/${id}?draft=true`, { body: { content: 'theirs' } })).status).toBe(404);
    expect((await other.post(`/v1/content/${id}/publish`)).status).toBe(404);
    expect((await other.delete(`/v1/content/${id}/draft`)).status).toBe(404);
    expect((await api.get(`/v1/content/${id}?version=draft`)).body.content).toBe('secret draft');
  });
});
