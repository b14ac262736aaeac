import type { StopFunction } from '@platform/runtime';
import type { CmsConfig } from '../config';
import { refreshNews, type NewsRefreshDeps } from './news.refresh';

/**
 * Refreshes (and prunes) the news on start and then every interval. Every replica runs the
 * timer; the advisory lock and the per-feed "last tried" time make one of them do the work.
 * It runs without feeds too, so that news left from removed feeds still ages out.
 */
export function startNewsScheduler(deps: NewsRefreshDeps, config: CmsConfig): StopFunction {
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = refreshNews(deps, {
      // A little slack so that a replica whose timer fires just early still refreshes.
      minIntervalMs: config.newsRefreshIntervalMs * 0.9,
      timeoutMs: config.newsFeedTimeoutMs,
      maxBytes: config.newsFeedMaxBytes,
      retentionDays: config.newsRetentionDays,
      pruneBatchSize: config.newsPruneBatchSize,
    })
      .then(() => undefined)
      .catch((error: unknown) => {
        deps.logger.error('news refresh failed', { error });
      })
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, config.newsRefreshIntervalMs);
  first.unref();
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
