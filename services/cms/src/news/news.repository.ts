import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';

/**
 * News is platform-wide (RESOLUTIONS 5): the same items for every project, so these
 * functions take no tenant. The routes still sit behind the key headers.
 */
export interface NewsItemRow {
  id: string;
  title: string;
  description: string;
  url: string;
  published_at: Date | null;
  source: string;
  category: string;
}

export interface ParsedNewsItem {
  url: string;
  title: string;
  description: string;
  publishedAt: Date | null;
  source: string;
  category: string;
  feedUrl: string;
}

export interface FeedStateRow {
  url: string;
  last_attempt_at: Date | null;
}

const COLUMNS = ['id', 'title', 'description', 'url', 'published_at', 'source', 'category'];

export async function listNews(
  db: Knex,
  filters: { category?: string; limit: number; offset: number },
): Promise<NewsItemRow[]> {
  const query = sharedTable<NewsItemRow>(db, 'news_items').select(...COLUMNS);
  if (filters.category) query.where({ category: filters.category });
  return query
    .orderByRaw('published_at DESC NULLS LAST, created_at DESC, id DESC')
    .limit(filters.limit)
    .offset(filters.offset);
}

export async function findNews(db: Knex, id: string): Promise<NewsItemRow | undefined> {
  return sharedTable<NewsItemRow>(db, 'news_items')
    .where({ id })
    .first(...COLUMNS);
}

/** Inserts new items and refreshes known ones; the URL is the identity (unique index). URLs must be distinct. */
export async function upsertNews(db: Knex, items: ParsedNewsItem[]): Promise<void> {
  // Batches keep each statement well under Postgres' 65,535 bind parameters.
  for (let start = 0; start < items.length; start += UPSERT_BATCH) {
    await upsertBatch(db, items.slice(start, start + UPSERT_BATCH));
  }
}

const UPSERT_BATCH = 500;

async function upsertBatch(db: Knex, items: ParsedNewsItem[]): Promise<void> {
  await sharedTable(db, 'news_items')
    .insert(
      items.map((item) => ({
        id: randomUUID(),
        url: item.url,
        title: item.title,
        description: item.description,
        published_at: item.publishedAt,
        source: item.source,
        category: item.category,
        feed_url: item.feedUrl,
      })),
    )
    .onConflict('url')
    .merge({
      title: db.raw('excluded.title'),
      description: db.raw('excluded.description'),
      published_at: db.raw('excluded.published_at'),
      source: db.raw('excluded.source'),
      category: db.raw('excluded.category'),
      feed_url: db.raw('excluded.feed_url'),
      fetched_at: db.fn.now(),
    })
    // The feed that first stored a URL owns it: a second feed listing it changes nothing.
    .whereRaw('news_items.feed_url = excluded.feed_url');
}

export async function feedStates(db: Knex, urls: string[]): Promise<FeedStateRow[]> {
  return sharedTable<FeedStateRow>(db, 'news_feeds').whereIn('url', urls).select('url', 'last_attempt_at');
}

export async function recordFeedResult(
  db: Knex,
  feed: { url: string; category: string },
  result: { ok: true; itemCount: number } | { ok: false; error: string },
): Promise<void> {
  const now = db.fn.now();
  const row = result.ok
    ? { last_attempt_at: now, last_success_at: now, last_error: null, last_item_count: result.itemCount }
    : { last_attempt_at: now, last_error: result.error };
  await sharedTable(db, 'news_feeds')
    .insert({ url: feed.url, category: feed.category, ...row })
    .onConflict('url')
    .merge({ category: feed.category, ...row });
}

/**
 * Deletes up to `limit` items older than `cutoff`: by publication date, or by when their feed
 * last listed them when undated or dated in the future. Returns how many went.
 */
export async function deleteNewsOlderThan(db: Knex, cutoff: Date, limit: number): Promise<number> {
  // LEAST ignores NULL: an undated item ages from the last refresh that still saw it.
  const result = await db.raw<{ rowCount: number }>(
    `delete from news_items where id in (
       select id from news_items
       where least(published_at, fetched_at) < ?
       limit ?::int
       for update skip locked)`,
    [cutoff, limit],
  );
  return result.rowCount;
}
