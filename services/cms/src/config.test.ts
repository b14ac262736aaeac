import { ConfigError } from '@platform/runtime';
import { loadCmsConfig } from './config';

describe('loadCmsConfig', () => {
  it('when nothing is set, then news is kept 90 days and pruned 1,000 rows per transaction', () => {
    expect(loadCmsConfig({})).toMatchObject({ newsRetentionDays: 90, newsPruneBatchSize: 1_000 });
  });

  it('when nothing is set, then the patterns of a schema get 250 ms to compile', () => {
    expect(loadCmsConfig({}).patternCompileBudgetMs).toBe(250);
  });

  it('when CMS_PATTERN_COMPILE_BUDGET_MS is set, then it is the budget', () => {
    expect(loadCmsConfig({ CMS_PATTERN_COMPILE_BUDGET_MS: '5' }).patternCompileBudgetMs).toBe(5);
  });

  it('when nothing is set, then there are no feeds and no hosts allowed past the webhook checks', () => {
    expect(loadCmsConfig({})).toMatchObject({ newsFeeds: [], webhookAllowedHosts: [] });
  });

  it('when NEWS_FEEDS is not a list of {url, category}, then a ConfigError names it', () => {
    expect(() => loadCmsConfig({ NEWS_FEEDS: '[{"url":"nope"}]' })).toThrow(/NEWS_FEEDS/);
    expect(() => loadCmsConfig({ NEWS_FEEDS: 'not json' })).toThrow(ConfigError);
  });

  it('when WEBHOOK_ALLOWED_HOSTS lists hosts, then they are trimmed and empty entries dropped', () => {
    expect(loadCmsConfig({ WEBHOOK_ALLOWED_HOSTS: ' 127.0.0.1, ,localhost' }).webhookAllowedHosts).toEqual([
      '127.0.0.1',
      'localhost',
    ]);
  });

  it('when NEWS_RETENTION_DAYS is 0, then it is accepted (keep forever)', () => {
    expect(loadCmsConfig({ NEWS_RETENTION_DAYS: '0' }).newsRetentionDays).toBe(0);
  });

  it.each([
    ['NEWS_RETENTION_DAYS', '-1'],
    ['NEWS_RETENTION_DAYS', '1.5'],
    ['NEWS_PRUNE_BATCH_SIZE', '0'],
    ['CMS_PATTERN_COMPILE_BUDGET_MS', '0'],
    ['CMS_PATTERN_COMPILE_BUDGET_MS', '60000'],
  ])('when %s is %s, then the configuration is refused', (name, value) => {
    expect(() => loadCmsConfig({ [name]: value })).toThrow(name);
  });
});
