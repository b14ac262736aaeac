import { loadAuthConfig } from './config';

describe('loadAuthConfig', () => {
  it('when nothing is set, then bcrypt cost 10, APP_URL localhost:3000, a 500 ms forgot-password floor and default limits', () => {
    expect(loadAuthConfig({})).toEqual({
      bcryptCost: 10,
      appUrl: 'http://localhost:3000',
      forgotPasswordMinMs: 500,
      eventRetentionDays: 90,
      anonymousMaxAgeMs: 30 * 24 * 3600_000,
      anonymousPruneIntervalMs: 3_600_000,
      oidc: {
        publicUrl: 'http://localhost:4001',
        timeoutMs: 5_000,
        maxResponseBytes: 1_048_576,
        slotsPerProject: 8,
        allowedHosts: [],
      },
      rateLimit: { windowMs: 900_000, perIp: 300, perEmail: 10 },
    });
  });

  it('when values are set, then they are used (a trailing slash on APP_URL is dropped)', () => {
    const config = loadAuthConfig({
      BCRYPT_COST: '12',
      APP_URL: 'https://app.example.com/',
      AUTH_FORGOT_PASSWORD_MIN_MS: '0',
      AUTH_RATE_LIMIT_WINDOW_MS: '60000',
      AUTH_RATE_LIMIT_PER_IP: '5',
      AUTH_RATE_LIMIT_PER_EMAIL: '2',
      AUTH_EVENT_RETENTION_DAYS: '30',
      AUTH_ANONYMOUS_MAX_AGE_DAYS: '1',
      AUTH_PUBLIC_URL: 'https://auth.example.com/',
      AUTH_OIDC_ALLOWED_HOSTS: 'idp.internal, 127.0.0.1',
    });
    expect(config).toEqual({
      bcryptCost: 12,
      appUrl: 'https://app.example.com',
      forgotPasswordMinMs: 0,
      eventRetentionDays: 30,
      anonymousMaxAgeMs: 24 * 3600_000,
      anonymousPruneIntervalMs: 3_600_000,
      oidc: {
        publicUrl: 'https://auth.example.com',
        timeoutMs: 5_000,
        maxResponseBytes: 1_048_576,
        slotsPerProject: 8,
        allowedHosts: ['idp.internal', '127.0.0.1'],
      },
      rateLimit: { windowMs: 60_000, perIp: 5, perEmail: 2 },
    });
  });

  it.each([
    ['BCRYPT_COST', '3'],
    ['BCRYPT_COST', '32'],
    ['APP_URL', 'ftp://x'],
    ['AUTH_RATE_LIMIT_PER_IP', '0'],
    ['AUTH_FORGOT_PASSWORD_MIN_MS', '-1'],
    ['AUTH_EVENT_RETENTION_DAYS', '0'],
    ['AUTH_PUBLIC_URL', 'not a url'],
    ['AUTH_OIDC_TIMEOUT_MS', '10'],
  ])('when %s is %s, then start-up is refused', (name, value) => {
    expect(() => loadAuthConfig({ [name]: value })).toThrow(/Invalid auth configuration/);
  });
});
