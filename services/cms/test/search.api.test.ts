import type { TestService } from '@platform/testkit';
import { clientFor, startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let freshClient: () => Promise<Client>;

beforeAll(async () => {
  ({ svc, freshClient } = await startCms());
});

afterAll(async () => {
  await svc.close();
});

const titles = (res: { body: { content: { title: string }[] } }) => res.body.content.map((c) => c.title);

async function seed(client: Client, items: Record<string, unknown>[]): Promise<void> {
  for (const item of items) await client.post('/v1/content', { body: { type: 'blog', content: '', ...item } });
}

describe('GET /v1/content?q=', () => {
  it('when a word is in one title, one body and one metadata string, then the title ranks first, metadata last', async () => {
    const client = await freshClient();
    await seed(client, [
      { title: 'In metadata', content: 'nothing here', metadata: { tags: ['gardening'] } },
      { title: 'Gardening for beginners', content: 'soil and seeds' },
      { title: 'In the body', content: 'a long text about gardening and more' },
      { title: 'Unrelated', content: 'cooking' },
    ]);
    const res = await client.get('/v1/content?q=gardening');
    expect(res.status).toBe(200);
    expect(titles(res)).toEqual(['Gardening for beginners', 'In the body', 'In metadata']);
    expect(res.body.total).toBe(3);
  });

  it('when the query quotes a phrase, then only items with those words in that order match', async () => {
    const client = await freshClient();
    await seed(client, [
      { title: 'One', content: 'the quick brown fox' },
      { title: 'Two', content: 'brown and quick' },
    ]);
    expect(titles(await client.get(`/v1/content?q=${encodeURIComponent('"quick brown"')}`))).toEqual(['One']);
    expect(titles(await client.get('/v1/content?q=quick%20brown')).sort()).toEqual(['One', 'Two']);
  });

  it('when a word is excluded with -, then items containing it are left out', async () => {
    const client = await freshClient();
    await seed(client, [
      { title: 'Postgres and MySQL compared', content: '' },
      { title: 'Postgres only', content: '' },
    ]);
    expect(titles(await client.get('/v1/content?q=postgres%20-mysql'))).toEqual(['Postgres only']);
  });

  it('when the query is broken search syntax, then 200 with whatever matches, never a 500', async () => {
    const client = await freshClient();
    await seed(client, [{ title: 'Broken syntax test', content: '' }]);
    for (const q of ['"unterminated', '&&|!(', '-', ':*', "'", 'a & | b', '(((', '\\', 'or', '-"-"']) {
      const res = await client.get(`/v1/content?q=${encodeURIComponent(q)}`);
      expect([q, res.status]).toEqual([q, 200]);
    }
    expect(titles(await client.get(`/v1/content?q=${encodeURIComponent('"syntax test')}`))).toEqual([
      'Broken syntax test',
    ]);
  });

  it('when q is empty or longer than 500 characters, then 400', async () => {
    const client = await freshClient();
    expect((await client.get('/v1/content?q=')).status).toBe(400);
    expect((await client.get(`/v1/content?q=${'a'.repeat(501)}`)).status).toBe(400);
  });

  it('when q is combined with filters and a page, then they apply to the matches', async () => {
    const client = await freshClient();
    await seed(client, [
      { title: 'Recipe one', content: '' },
      { title: 'Recipe two', content: '', status: 'published' },
      { title: 'Recipe three', content: '', status: 'published' },
      { type: 'faq', title: 'Recipe question', content: '', status: 'published' },
    ]);
    const res = await client.get('/v1/content?q=recipe&type=blog&status=published&limit=1&offset=1');
    expect(res.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(res.body.content).toHaveLength(1);
  });

  it("when the project's search language is english, then words match their other forms", async () => {
    const project = await svc.createProject({ searchLanguage: 'english' });
    const client = clientFor(svc.app, project.headers);
    await seed(client, [{ title: 'Running shoes', content: '' }]);
    expect(titles(await client.get('/v1/content?q=run'))).toEqual(['Running shoes']);
    const simple = await freshClient();
    await seed(simple, [{ title: 'Running shoes', content: '' }]);
    expect(titles(await simple.get('/v1/content?q=run'))).toEqual([]);
  });

  it("when another project searches for a project's words, then it finds nothing of it", async () => {
    const mine = await freshClient();
    await seed(mine, [{ title: 'Confidential roadmap', content: '' }]);
    const other = await freshClient();
    expect((await other.get('/v1/content?q=roadmap')).body).toMatchObject({ content: [], total: 0 });
  });
});
