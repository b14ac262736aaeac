/**
 * One news refresh (and prune of old news), then exit: for running the refresh as a scheduled
 * job (e.g. a Kubernetes CronJob) instead of, or beside, the in-process timer. Needs
 * DATABASE_URL and NEWS_FEEDS.
 */
import { createDb } from '@platform/db';
import { createLogger } from '@platform/http';
import { ConfigError, loadPlatformConfig } from '@platform/runtime';
import { loadCmsConfig } from './config';
import { refreshNews } from './news/news.refresh';

(async () => {
  const config = loadPlatformConfig();
  const cms = loadCmsConfig();
  const logger = createLogger('cms', config.logLevel);
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required to refresh the news');
  const db = createDb({ url: config.databaseUrl, poolMax: 2, applicationName: 'cms-news-refresh', logger });
  try {
    const report = await refreshNews(
      { db, logger, config: cms },
      {
        timeoutMs: cms.newsFeedTimeoutMs,
        maxBytes: cms.newsFeedMaxBytes,
        retentionDays: cms.newsRetentionDays,
        pruneBatchSize: cms.newsPruneBatchSize,
      },
    );
    logger.info('news refresh finished', { ran: report.ran, feeds: report.feeds, pruned: report.pruned });
  } finally {
    await db.destroy();
  }
})().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
