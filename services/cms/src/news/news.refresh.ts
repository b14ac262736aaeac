import type { Knex } from 'knex';
import { tryTransactionLock } from '@platform/db';
import type { Logger } from '@platform/http';
import { loadCmsConfig, type CmsConfig } from '../config';
import { readFeed, type FeedSource } from './feed-reader';
import { NEWS_REFRESH_LOCK } from './news.lock';
import { pruneNews, retentionCutoff } from './news.prune';
import * as repo from './news.repository';
import type { ParsedNewsItem } from './news.repository';

export { NEWS_REFRESH_LOCK } from './news.lock';
const FEED_CONCURRENCY = 4;

export interface NewsRefreshDeps {
  db: Knex;
  logger: Logger;
  config: { newsFeeds: FeedSource[] };
}

export interface NewsRefreshOptions {
  /** Defaults to `deps.config.newsFeeds` (the CMS's NEWS_FEEDS). */
  feeds?: FeedSource[];
  /** Feeds tried less than this long ago (by any replica) are skipped; 0 refreshes all. */
  minIntervalMs?: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** Defaults to NEWS_RETENTION_DAYS; 0 keeps news forever. */
  retentionDays?: number;
  /** Defaults to NEWS_PRUNE_BATCH_SIZE. */
  pruneBatchSize?: number;
}

export interface FeedReport {
  url: string;
  category: string;
  ok: boolean;
  items: number;
  error?: string;
}

export interface NewsRefreshReport {
  /** False when another replica held the lock. */
  ran: boolean;
  feeds: FeedReport[];
  /** Items deleted for being older than the retention. */
  pruned: number;
}

interface FetchedFeed {
  feed: FeedSource;
  items?: ParsedNewsItem[];
  error?: string;
}

/** fetch() reports "fetch failed" and keeps the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
function describe(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  return `${err.message || String(error)}${cause ? ` (${cause})` : ''}`;
}

async function mapLimited<T, R>(values: T[], limit: number, fn: (value: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(values.length);
  let next = 0;
  const worker = async () => {
    while (next < values.length) {
      const index = next++;
      results[index] = await fn(values[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, worker));
  return results;
}

/** Stores one feed's items in a savepoint, so that items the database refuses fail their feed alone. */
async function storeItems(
  trx: Knex.Transaction,
  items: ParsedNewsItem[],
  seen: Set<string>,
  cutoff: Date | undefined,
): Promise<{ count: number } | { error: string }> {
  // Items already past the retention are left out: stored, they would be pruned and then
  // stored again (with a new id) on every refresh while their feed still lists them.
  const recent = cutoff ? items.filter((item) => !item.publishedAt || item.publishedAt >= cutoff) : items;
  // The same link in two entries (or two feeds) is one news item; the first one wins.
  const fresh = recent.filter((item) => !seen.has(item.url) && seen.add(item.url));
  try {
    await trx.transaction((savepoint) => repo.upsertNews(savepoint, fresh));
    return { count: fresh.length };
  } catch (error) {
    return { error: `items could not be stored: ${describe(error)}` };
  }
}

/**
 * Fetches every due feed and stores its items, deduplicated by URL, then deletes the items
 * older than the retention. A feed that fails is logged and its stored items stay as they
 * were (until they age out). Exported for a CronJob-style runner too.
 */
export async function refreshNews(deps: NewsRefreshDeps, options: NewsRefreshOptions = {}): Promise<NewsRefreshReport> {
  // The defaults only: whoever runs the refresh passes the configured values.
  const defaults = loadCmsConfig({});
  const cutoff = retentionCutoff(options.retentionDays ?? defaults.newsRetentionDays);
  const refreshed = await refreshFeeds(deps, options, defaults, cutoff);
  if (!refreshed) return { ran: false, feeds: [], pruned: 0 };
  // After the refresh has committed: pruning runs in short transactions of its own.
  const pruned = cutoff ? await pruneNews(deps.db, cutoff, options.pruneBatchSize ?? defaults.newsPruneBatchSize) : 0;
  if (pruned) deps.logger.info('old news pruned', { removed: pruned, publishedBefore: cutoff });
  return { ran: true, feeds: refreshed.feeds, pruned };
}

/** The refresh proper, in one transaction under the lock; undefined when another replica holds it. */
async function refreshFeeds(
  deps: NewsRefreshDeps,
  options: NewsRefreshOptions,
  defaults: CmsConfig,
  cutoff: Date | undefined,
): Promise<{ feeds: FeedReport[] } | undefined> {
  const feeds = options.feeds ?? deps.config.newsFeeds;
  if (!feeds.length) return { feeds: [] };
  const readOptions = {
    timeoutMs: options.timeoutMs ?? defaults.newsFeedTimeoutMs,
    maxBytes: options.maxBytes ?? defaults.newsFeedMaxBytes,
  };
  const minIntervalMs = options.minIntervalMs ?? 0;

  return deps.db.transaction(async (trx) => {
    // The transaction-level lock is released by commit, rollback, or a dropped connection.
    if (!(await tryTransactionLock(trx, NEWS_REFRESH_LOCK))) return undefined;

    const states = new Map(
      (
        await repo.feedStates(
          trx,
          feeds.map((f) => f.url),
        )
      ).map((s) => [s.url, s.last_attempt_at]),
    );
    const due = feeds.filter((feed) => {
      const last = states.get(feed.url);
      return !last || Date.now() - last.getTime() >= minIntervalMs;
    });

    const fetched = await mapLimited(due, FEED_CONCURRENCY, async (feed): Promise<FetchedFeed> => {
      try {
        return { feed, items: await readFeed(feed, readOptions) };
      } catch (error) {
        return { feed, error: describe(error) };
      }
    });

    const seen = new Set<string>();
    const reports: FeedReport[] = [];
    for (const { feed, items, error: fetchError } of fetched) {
      const stored = items ? await storeItems(trx, items, seen, cutoff) : { error: fetchError as string };
      if ('error' in stored) {
        deps.logger.warn('news feed failed; keeping its last good items', {
          feedUrl: feed.url,
          category: feed.category,
          error: stored.error,
        });
        await repo.recordFeedResult(trx, feed, { ok: false, error: stored.error });
        reports.push({ url: feed.url, category: feed.category, ok: false, items: 0, error: stored.error });
        continue;
      }
      await repo.recordFeedResult(trx, feed, { ok: true, itemCount: stored.count });
      reports.push({ url: feed.url, category: feed.category, ok: true, items: stored.count });
    }
    deps.logger.info('news refreshed', { feeds: reports.length, failed: reports.filter((r) => !r.ok).length });
    return { feeds: reports };
  });
}
