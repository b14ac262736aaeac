/**
 * Advisory lock held by each news refresh and each prune batch, so that only one replica (or
 * CronJob) writes the news at a time.
 */
export const NEWS_REFRESH_LOCK = 'cms.news-refresh';
