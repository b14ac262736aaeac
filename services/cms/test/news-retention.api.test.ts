import { randomUUID } from 'node:crypto';
import { tryTransactionLock } from '@platform/db';
import { startHttpStub, type HttpStub } from '@platform/testkit';
import type { Logger } from '@platform/http';
import { refreshNews } from '../src';
import { NEWS_REFRESH_LOCK } from '../src/news/news.refresh';
import { pruneNews, retentionCutoff } from '../src/news/news.prune';
import { startCms, type CmsTest } from './support/cms-test-service';

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;

/** Dates relative to now, so that the test means the same on any day. */
function feedXml(): string {
  const item = (slug: string, published?: Date) =>
    `<item><title>${slug}</title><link>https://retention.example.com/${slug}</link>` +
    (published ? `<pubDate>${published.toUTCString()}</pubDate>` : '') +
    `</item>`;
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Retention</title>
    ${item('fresh', daysAgo(3))}${item('undated')}${item('stale', daysAgo(120))}</channel></rss>`;
}

let cms: CmsTest;
let stub: HttpStub;
const feeds = () => [{ url: `${stub.url}/feed.xml`, category: 'retention' }];
const db = () => cms.svc.deps.db;

const refresh = (options: Parameters<typeof refreshNews>[1]) =>
  refreshNews({ db: db(), logger, config: { newsFeeds: feeds() } }, { timeoutMs: 2_000, ...options });

/** Stored as if an earlier refresh had fetched them; `fetchedAt` is when their feed last listed them. */
async function seed(category: string, items: { publishedAt: Date | null; fetchedAt: Date }[]): Promise<string[]> {
  const rows = items.map((item) => ({
    id: randomUUID(),
    url: `https://seed.example.com/${category}/${randomUUID()}`,
    title: 'seeded',
    source: 'Seed',
    category,
    feed_url: 'https://seed.example.com/feed.xml',
    published_at: item.publishedAt,
    fetched_at: item.fetchedAt,
  }));
  await db()('news_items').insert(rows);
  return rows.map((row) => row.url);
}

const urlsIn = async (category: string): Promise<string[]> =>
  (await db()('news_items').where({ category }).orderBy('url').pluck('url')) as string[];

beforeAll(async () => {
  stub = await startHttpStub((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(feedXml());
  });
  cms = await startCms();
});

afterAll(async () => {
  await cms.svc.close();
  await stub.close();
});

describe('news retention', () => {
  it('when news is older than the retention, then the refresh deletes it and keeps the recent items', async () => {
    const old = await seed('aged', [
      { publishedAt: daysAgo(91), fetchedAt: daysAgo(91) },
      // Still listed by its feed yesterday, but published long ago: its date decides.
      { publishedAt: daysAgo(400), fetchedAt: daysAgo(1) },
      // Undated and not listed by its feed for 100 days.
      { publishedAt: null, fetchedAt: daysAgo(100) },
      // Dated in the future by a bad feed, and gone from it for 100 days.
      { publishedAt: new Date(Date.now() + 30 * DAY_MS), fetchedAt: daysAgo(100) },
    ]);
    const kept = await seed('aged', [
      { publishedAt: daysAgo(89), fetchedAt: daysAgo(89) },
      { publishedAt: null, fetchedAt: daysAgo(1) },
      { publishedAt: new Date(Date.now() + 30 * DAY_MS), fetchedAt: daysAgo(1) },
    ]);

    const report = await refresh({ retentionDays: 90 });

    expect(report.pruned).toBe(old.length);
    expect(await urlsIn('aged')).toEqual([...kept].sort());
    const listed = (await cms.api.get('/v1/news?category=aged&limit=100')).body.news as { url: string }[];
    expect(listed.map((n) => n.url).sort()).toEqual([...kept].sort());
  });

  it('when a feed lists an item older than the retention, then it is not stored, so it is not pruned and re-added every refresh', async () => {
    const first = await refresh({ retentionDays: 90 });
    expect(first.feeds).toEqual([expect.objectContaining({ ok: true, items: 2 })]);
    const stored = await db()('news_items').where({ category: 'retention' }).orderBy('url').select('id', 'url');
    expect(stored.map((row: { url: string }) => row.url)).toEqual([
      'https://retention.example.com/fresh',
      'https://retention.example.com/undated',
    ]);

    const second = await refresh({ retentionDays: 90 });
    expect(second.pruned).toBe(0);
    expect(await db()('news_items').where({ category: 'retention' }).orderBy('url').select('id', 'url')).toEqual(
      stored,
    );
  });

  it('when the backlog is larger than one batch, then each batch is its own transaction under the refresh lock', async () => {
    const old = await seed(
      'backlog',
      Array.from({ length: 7 }, () => ({ publishedAt: daysAgo(200), fetchedAt: daysAgo(200) })),
    );
    // Statements by transaction (knex tags each with its transaction id).
    const byTransaction = new Map<string, string[]>();
    const record = (query: { sql: string; __knexTxId?: string }) => {
      const sql = query.sql.trim().toLowerCase();
      if (!/^(select pg_try_advisory_xact_lock|delete from news_items)/.test(sql)) return;
      const key = query.__knexTxId ?? 'none';
      byTransaction.set(key, [...(byTransaction.get(key) ?? []), sql.split(' ')[0]]);
    };
    db().on('query', record);
    try {
      expect(await refresh({ feeds: [], retentionDays: 90, pruneBatchSize: 3 })).toEqual({
        ran: true,
        feeds: [],
        pruned: old.length,
      });
    } finally {
      db().off('query', record);
    }
    expect(await urlsIn('backlog')).toEqual([]);
    // 3 + 3 + 1: three transactions, each taking the lock before its one delete.
    expect([...byTransaction.keys()]).not.toContain('none');
    expect([...byTransaction.values()]).toEqual([
      ['select', 'delete'],
      ['select', 'delete'],
      ['select', 'delete'],
    ]);
  });

  it('when another replica holds the refresh lock, then pruning deletes nothing and leaves it to that replica', async () => {
    const old = await seed('locked', [{ publishedAt: daysAgo(200), fetchedAt: daysAgo(200) }]);
    await db().transaction(async (trx) => {
      expect(await tryTransactionLock(trx, NEWS_REFRESH_LOCK)).toBe(true);
      expect(await pruneNews(db(), retentionCutoff(90) as Date, 100)).toBe(0);
    });
    expect(await urlsIn('locked')).toEqual(old);
  });

  it('when the retention is 0 days, then nothing is pruned or left out', async () => {
    const old = await seed('forever', [{ publishedAt: daysAgo(5_000), fetchedAt: daysAgo(5_000) }]);
    const report = await refresh({ retentionDays: 0 });
    expect(report).toMatchObject({ ran: true, pruned: 0, feeds: [expect.objectContaining({ items: 3 })] });
    expect(await urlsIn('forever')).toEqual(old);
    expect(retentionCutoff(0)).toBeUndefined();
  });
});
