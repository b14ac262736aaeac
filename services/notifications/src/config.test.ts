import { ConfigError } from '@platform/runtime';
import { loadNotificationsConfig } from './config';

describe('notifications configuration', () => {
  it('when nothing is set, then retention is 30 days, the purge runs hourly in batches of 5000', () => {
    expect(loadNotificationsConfig({})).toEqual({
      retentionDays: 30,
      purgeIntervalMs: 3_600_000,
      purgeBatchSize: 5_000,
      live: {
        heartbeatMs: 15_000,
        maxStreamsPerProject: 5_000,
        maxStreamsPerUser: 5,
        maxBufferedBytes: 65_536,
        replayWindowHours: 24,
        replayMaxEvents: 1_000,
        expirySweepMs: 5_000,
      },
    });
  });

  it('when the variables are set, then they are used', () => {
    const env = {
      NOTIFICATIONS_RETENTION_DAYS: '7',
      NOTIFICATIONS_PURGE_INTERVAL_MS: '60000',
      NOTIFICATIONS_PURGE_BATCH_SIZE: '100',
    };
    expect(loadNotificationsConfig(env)).toMatchObject({
      retentionDays: 7,
      purgeIntervalMs: 60_000,
      purgeBatchSize: 100,
    });
  });

  it.each([
    ['NOTIFICATIONS_RETENTION_DAYS', '-1'],
    ['NOTIFICATIONS_RETENTION_DAYS', 'soon'],
    ['NOTIFICATIONS_PURGE_INTERVAL_MS', '10'],
    ['NOTIFICATIONS_PURGE_BATCH_SIZE', '0'],
    ['NOTIFICATIONS_STREAM_HEARTBEAT_MS', '0'],
    ['NOTIFICATIONS_STREAMS_PER_USER', 'many'],
  ])('when %s is %s, then start-up is refused with a ConfigError', (name, value) => {
    expect(() => loadNotificationsConfig({ [name]: value })).toThrow(ConfigError);
  });
});
