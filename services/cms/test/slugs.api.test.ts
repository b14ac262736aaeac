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

describe('slugs', () => {
  it('when the title has accents and special letters, then the slug is transliterated to ASCII', async () => {
    const res = await api.post('/v1/content', {
      body: {
        type: 'blog',
        title: 'Crème Brûlée & Straße in Århus — Æble!',
        content: '',
      },
    });
    expect(res.body.slug).toBe('creme-brulee-and-strasse-in-arhus-aeble');
  });

  it('when the same title is used again in the same type, then -2 and -3 are appended', async () => {
    const slugs = [];
    for (let i = 0; i < 3; i++)
      slugs.push(
        (await api.post('/v1/content', { body: { type: 'blog', title: 'Release Notes', content: '' } })).body.slug,
      );
    expect(slugs).toEqual(['release-notes', 'release-notes-2', 'release-notes-3']);
  });

  it('when higher suffixes were taken explicitly, then the next slug follows the highest', async () => {
    const client = await freshClient();
    await client.post('/v1/content', { body: { type: 'blog', title: 'Launch', content: '' } });
    await client.post('/v1/content', { body: { type: 'blog', title: 'x', content: '', slug: 'launch-5' } });
    await client.post('/v1/content', { body: { type: 'blog', title: 'x', content: '', slug: 'launch-week' } });
    await client.post('/v1/content', { body: { type: 'blog', title: 'x', content: '', slug: 'launch-09' } });
    expect((await client.post('/v1/content', { body: { type: 'blog', title: 'Launch', content: '' } })).body.slug).toBe(
      'launch-6',
    );
  });

  it('when only suffixed slugs exist and the plain one is free, then the plain slug is used', async () => {
    const client = await freshClient();
    await client.post('/v1/content', { body: { type: 'blog', title: 'x', content: '', slug: 'roadmap-3' } });
    expect(
      (await client.post('/v1/content', { body: { type: 'blog', title: 'Roadmap', content: '' } })).body.slug,
    ).toBe('roadmap');
  });

  it('when the same title is used in another type, then that type gets the plain slug', async () => {
    await api.post('/v1/content', { body: { type: 'blog', title: 'Pricing', content: '' } });
    const res = await api.post('/v1/content', { body: { type: 'page', title: 'Pricing', content: '' } });
    expect(res.body.slug).toBe('pricing');
  });

  it('when many items with one title are created at once, then they get the plain slug and -2 to -8', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post('/v1/content', { body: { type: 'faq', title: 'Same Question', content: '' } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const slugs = results.map((r) => r.body.slug);
    expect(slugs.sort()).toEqual(['same-question', ...[2, 3, 4, 5, 6, 7, 8].map((n) => `same-question-${n}`)]);
  });

  it('when an explicit slug is already taken in that type, then 409 CONFLICT', async () => {
    await api.post('/v1/content', { body: { type: 'page', title: 'Contact', content: '', slug: 'contact' } });
    const res = await api.post('/v1/content', { body: { type: 'page', title: 'Other', content: '', slug: 'contact' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('when an explicit slug exists only in another project, then it is free here', async () => {
    const other = await freshClient();
    await other.post('/v1/content', { body: { type: 'page', title: 'Terms', content: '', slug: 'terms' } });
    const res = await api.post('/v1/content', { body: { type: 'page', title: 'Terms', content: '', slug: 'terms' } });
    expect(res.status).toBe(201);
  });

  it('when an update sets a slug taken in that type, then 409 and the item keeps its slug', async () => {
    await api.post('/v1/content', { body: { type: 'blog', title: 'Taken Slug', content: '' } });
    const item = (await api.post('/v1/content', { body: { type: 'blog', title: 'Mover', content: '' } })).body;
    const res = await api.put(`/v1/content/${item.id}`, { body: { slug: 'taken-slug' } });
    expect(res.status).toBe(409);
    expect((await api.get(`/v1/content/${item.id}`)).body.slug).toBe('mover');
  });

  it('when the title changes, then the slug stays as it was', async () => {
    const item = (await api.post('/v1/content', { body: { type: 'blog', title: 'Stable Link', content: '' } })).body;
    const res = await api.put(`/v1/content/${item.id}`, { body: { title: 'A New Title' } });
    expect(res.body).toMatchObject({ title: 'A New Title', slug: 'stable-link' });
  });
});
