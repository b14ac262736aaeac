import request from 'supertest';
import { tryTransactionLock } from '@platform/db';
import { NEWS_REFRESH_LOCK } from '../src/news/news.refresh';
import { createTestService, startHttpStub, waitFor, type HttpStub, type TestService } from '@platform/testkit';
import type { Logger } from '@platform/http';
import { cmsService, refreshNews } from '../src';
import { clientFor, startCms, type Client } from './support/cms-test-service';

const RSS_ITEMS = 12;

let titleSuffix = '';

function rssFeed(): string {
  const items = Array.from({ length: RSS_ITEMS }, (_, i) => {
    const day = String(i + 1).padStart(2, '0');
    return `<item><title>Tech story ${i + 1}${titleSuffix}</title><link>https://news.example.com/tech/${i + 1}</link>
      <description>Summary of story ${i + 1}</description><pubDate>${new Date(`2026-10-${day}T08:00:00Z`).toUTCString()}</pubDate></item>`;
  }).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Example Tech</title><link>https://news.example.com</link><description>Tech</description>
${items}
<item><title>No link at all</title><description>skipped</description></item>
<item><title>Shared story</title><link>https://shared.example.org/story</link><description>In both feeds</description></item>
</channel></rss>`;
}

const ATOM_FEED = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Science Daily</title>
  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
  <updated>2026-11-20T18:30:02Z</updated>
  <entry>
    <title>Comet spotted</title>
    <link href="https://science.example.org/comet"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
    <published>2026-11-20T18:30:02Z</published>
    <summary type="html">&lt;p&gt;A &lt;b&gt;bright&lt;/b&gt; comet&lt;/p&gt;</summary>
  </entry>
  <entry>
    <title>Deep sea find</title>
    <link rel="alternate" href="https://science.example.org/deep-sea"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6b</id>
    <updated>2026-11-19T10:00:00Z</updated>
    <summary>New species</summary>
  </entry>
  <entry>
    <title>Shared story (atom)</title>
    <link href="https://shared.example.org/story"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6c</id>
    <updated>2026-11-18T10:00:00Z</updated>
  </entry>
</feed>`;

let svc: TestService;
let stub: HttpStub;
let api: Client;
let freshClient: () => Promise<Client>;
let rssFails = false;
const warnings: { message: string; meta: Record<string, unknown> }[] = [];

/** Records warnings so that a failing feed can be shown to be logged. */
const logger = {
  info: () => undefined,
  error: () => undefined,
  warn: (message: string, meta: Record<string, unknown>) => {
    warnings.push({ message, meta });
  },
} as unknown as Logger;

let feeds: { url: string; category: string }[];
// Retention off: the fixtures carry fixed dates, which must not age out as the calendar moves
// (news-retention.api.test.ts covers the retention).
const refresh = (options: Parameters<typeof refreshNews>[1] = {}) =>
  refreshNews(
    { db: svc.deps.db, logger, config: { newsFeeds: feeds } },
    { timeoutMs: 2_000, retentionDays: 0, ...options },
  );
const feedRequests = (path: string) => stub.requests.filter((r) => r.path === path).length;

beforeAll(async () => {
  stub = await startHttpStub((req, res) => {
    if (req.path === '/rss.xml' && !rssFails) {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      res.end(rssFeed());
    } else if (req.path === '/big.xml') {
      const items = Array.from(
        { length: 9_000 },
        (_, i) => `<item><title>Big ${i}</title><link>https://big.example.net/${i}</link></item>`,
      );
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title>${items.join('')}</channel></rss>`);
    } else if (req.path === '/nul.xml' || req.path === '/ancient.xml') {
      const title = req.path === '/nul.xml' ? 'Null\u0000byte' : 'Ancient';
      const date = req.path === '/nul.xml' ? 'Mon, 02 Nov 2026 08:00:00 GMT' : '-010000-01-01T00:00:00Z';
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Odd</title><item><title>${title}</title>` +
          `<link>https://odd.example.net${req.path}</link><pubDate>${date}</pubDate></item></channel></rss>`,
      );
    } else if (req.path === '/atom.xml') {
      res.writeHead(200, { 'content-type': 'application/atom+xml' });
      res.end(ATOM_FEED);
    } else {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('down');
    }
  });
  feeds = [
    { url: `${stub.url}/rss.xml`, category: 'tech' },
    { url: `${stub.url}/atom.xml`, category: 'science' },
    { url: `${stub.url}/broken.xml`, category: 'sports' },
  ];
  ({ svc, api, freshClient } = await startCms());
});

afterAll(async () => {
  await svc.close();
  await stub.close();
});

describe('news refresh', () => {
  it('when RSS and Atom feeds are refreshed, then their items are stored and the failing feed is reported and logged', async () => {
    const report = await refresh();
    expect(report.ran).toBe(true);
    expect(report.feeds).toEqual([
      { url: feeds[0].url, category: 'tech', ok: true, items: RSS_ITEMS + 1 },
      // The shared link was already taken by the RSS feed in this run.
      { url: feeds[1].url, category: 'science', ok: true, items: 2 },
      { url: feeds[2].url, category: 'sports', ok: false, items: 0, error: 'feed answered HTTP 503' },
    ]);
    expect(warnings).toContainEqual({
      message: 'news feed failed; keeping its last good items',
      meta: expect.objectContaining({ feedUrl: feeds[2].url, error: 'feed answered HTTP 503' }),
    });

    const science = await api.get('/v1/news?category=science');
    expect(science.status).toBe(200);
    expect(science.body.news).toEqual([
      {
        id: expect.any(String),
        title: 'Comet spotted',
        description: 'A bright comet',
        url: 'https://science.example.org/comet',
        publishedAt: '2026-11-20T18:30:02.000Z',
        source: 'Science Daily',
        category: 'science',
      },
      expect.objectContaining({
        title: 'Deep sea find',
        publishedAt: '2026-11-19T10:00:00.000Z',
        description: 'New species',
      }),
    ]);
    const tech = await api.get('/v1/news?category=tech&limit=100');
    expect(tech.body.news).toHaveLength(RSS_ITEMS + 1);
    expect(tech.body.news[0]).toMatchObject({
      title: 'Tech story 12',
      url: 'https://news.example.com/tech/12',
      description: 'Summary of story 12',
    });
    // Undated items come after dated ones.
    expect(tech.body.news[RSS_ITEMS]).toMatchObject({
      title: 'Shared story',
      source: 'Example Tech',
      publishedAt: null,
    });
  });

  it('when the feeds are refreshed again, then no item is duplicated, ids stay and changed titles are updated', async () => {
    const before = (await api.get('/v1/news?limit=100')).body.news as { id: string; url: string; title: string }[];
    titleSuffix = ' (updated)';
    try {
      await refresh();
    } finally {
      titleSuffix = '';
    }
    const after = (await api.get('/v1/news?limit=100')).body.news as { id: string; url: string; title: string }[];
    expect(after).toHaveLength(before.length);
    expect(new Set(after.map((n) => n.url)).size).toBe(after.length);
    expect(after.map((n) => n.id).sort()).toEqual(before.map((n) => n.id).sort());
    const story = after.find((n) => n.url === 'https://news.example.com/tech/1');
    expect(story).toMatchObject({ id: before.find((n) => n.url === story?.url)?.id, title: 'Tech story 1 (updated)' });
  });

  it('when a feed has more items than the 65,535 bind parameters of one statement allow, then all are stored', async () => {
    const report = await refresh({ feeds: [{ url: `${stub.url}/big.xml`, category: 'big' }] });
    expect(report.feeds[0]).toMatchObject({ ok: true, items: 9_000 });
    const [{ count }] = await svc.deps.db('news_items').where({ category: 'big' }).count({ count: '*' });
    expect(Number(count)).toBe(9_000);
  });

  it('when a feed fails after a good fetch, then its last good items are still served unchanged', async () => {
    const before = (await api.get('/v1/news?category=tech&limit=100')).body.news;
    rssFails = true;
    try {
      warnings.length = 0;
      const report = await refresh();
      expect(report.feeds[0]).toMatchObject({ url: feeds[0].url, ok: false });
      expect(report.feeds[1]).toMatchObject({ url: feeds[1].url, ok: true });
      expect(warnings.map((w) => w.meta.feedUrl)).toContain(feeds[0].url);
      // The shared link stays with the feed that stored it first, even while that feed is down.
      expect((await api.get('/v1/news?category=tech&limit=100')).body.news).toEqual(before);
    } finally {
      rssFails = false;
    }
  });

  it("when the database refuses one feed's items, then only that feed fails and NUL characters are dropped", async () => {
    const odd = [
      { url: `${stub.url}/ancient.xml`, category: 'odd' },
      { url: `${stub.url}/nul.xml`, category: 'odd' },
    ];
    const report = await refresh({ feeds: odd });
    expect(report.feeds).toEqual([
      {
        url: odd[0].url,
        category: 'odd',
        ok: false,
        items: 0,
        error: expect.stringMatching(/^items could not be stored/),
      },
      { url: odd[1].url, category: 'odd', ok: true, items: 1 },
    ]);
    expect((await api.get('/v1/news?category=odd')).body.news).toEqual([
      expect.objectContaining({ title: 'Nullbyte', url: 'https://odd.example.net/nul.xml' }),
    ]);
  });

  it('when another replica holds the refresh lock, then this one fetches nothing', async () => {
    const before = feedRequests('/rss.xml');
    await svc.deps.db.transaction(async (trx) => {
      expect(await tryTransactionLock(trx, NEWS_REFRESH_LOCK)).toBe(true);
      expect(await refresh()).toEqual({ ran: false, feeds: [], pruned: 0 });
    });
    expect(feedRequests('/rss.xml')).toBe(before);
  });

  it('when a feed was tried within the minimum interval, then it is skipped', async () => {
    const before = feedRequests('/rss.xml');
    const report = await refresh({ minIntervalMs: 60 * 60 * 1000 });
    expect(report).toEqual({ ran: true, feeds: [], pruned: 0 });
    expect(feedRequests('/rss.xml')).toBe(before);
  });

  it('when the service starts its background work with NEWS_FEEDS, then the news is refreshed at once', async () => {
    // Retention off, so that the fixtures' fixed dates never age out.
    const started = await createTestService(cmsService, {
      env: { NEWS_FEEDS: JSON.stringify([feeds[1]]), NEWS_RETENTION_DAYS: '0' },
    });
    const stop = await started.startJobs();
    try {
      const client = clientFor(started.app, (await started.createProject()).headers);
      const news = await waitFor(async () => {
        const res = await client.get('/v1/news');
        return res.body.news.length === 3 ? res.body.news : undefined;
      });
      expect(news.map((n: { category: string }) => n.category)).toEqual(['science', 'science', 'science']);
    } finally {
      await stop();
      await started.close();
    }
  });
});

describe('GET /v1/news and /v1/news/{id}', () => {
  it('when no limit is given, then the 10 newest items come back', async () => {
    const res = await api.get('/v1/news');
    expect(res.body.news).toHaveLength(10);
    const dated = res.body.news.filter((n: { publishedAt: string | null }) => n.publishedAt);
    const times = dated.map((n: { publishedAt: string }) => Date.parse(n.publishedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.body.news[0].title).toBe('Comet spotted');
  });

  it('when limit is given, then at most that many come back', async () => {
    expect((await api.get('/v1/news?limit=3')).body.news).toHaveLength(3);
  });

  it('when a category has no items, then the list is empty', async () => {
    expect((await api.get('/v1/news?category=sports')).body).toEqual({ news: [] });
  });

  it.each(['limit=101', 'limit=0', 'limit=abc', 'offset=-2'])('when the query is %s, then 400', async (query) => {
    expect((await api.get(`/v1/news?${query}`)).status).toBe(400);
  });

  it('when an item is fetched by id, then the news item object itself is returned', async () => {
    const [first] = (await api.get('/v1/news?limit=1')).body.news;
    const res = await api.get(`/v1/news/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(first);
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' OR '1'='1"])(
    'when the id is %s, then 404 NOT_FOUND',
    async (id) => {
      const res = await api.get(`/v1/news/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    },
  );

  it('when any project asks, then it sees the same platform-wide news', async () => {
    const other = await freshClient();
    expect((await other.get('/v1/news?limit=100')).body).toEqual((await api.get('/v1/news?limit=100')).body);
  });

  it('when the key headers are missing, then 401', async () => {
    expect((await request(svc.app).get('/v1/news')).status).toBe(401);
    expect((await clientFor(svc.app, {}).get('/v1/news')).status).toBe(401);
  });
});
