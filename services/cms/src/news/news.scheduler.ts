import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { CmsConfig } from '../config';
import { refreshNews, type NewsRefreshDeps } from './news.refresh';

/**
 * Refreshes (and prunes) the news on start and then every interval. Every replica runs the
 * timer; the advisory lock and the per-feed "last tried" time make one of them do the work.
 * It runs without feeds too, so that news left from removed feeds still ages out.
 */
export function startNewsScheduler(deps: Omit<NewsRefreshDeps, 'config'>, config: CmsConfig): StopFunction {
  return startRecurringJob({
    name: 'news refresh',
    intervalMs: config.newsRefreshIntervalMs,
    firstRunMs: 0,
    logger: deps.logger,
    run: () =>
      refreshNews(
        { db: deps.db, logger: deps.logger, config },
        {
          // A little slack so that a replica whose timer fires just early still refreshes.
          minIntervalMs: config.newsRefreshIntervalMs * 0.9,
          timeoutMs: config.newsFeedTimeoutMs,
          maxBytes: config.newsFeedMaxBytes,
          retentionDays: config.newsRetentionDays,
          pruneBatchSize: config.newsPruneBatchSize,
        },
      ),
  });
}
