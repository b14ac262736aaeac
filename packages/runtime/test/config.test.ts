import { assertProductionSecrets, ConfigError, loadPlatformConfig } from '../src/config';

describe('configuration', () => {
  it('when nothing is set, then local defaults apply', () => {
    const config = loadPlatformConfig({});
    expect(config.production).toBe(false);
    expect(config.keyCacheTtlMs).toBe(30_000);
  });

  it('when production lacks secrets, then start-up is refused naming them', () => {
    const config = loadPlatformConfig({ NODE_ENV: 'production' });
    expect(() => assertProductionSecrets(config, { jwtPrivateKey: true })).toThrow(ConfigError);
    expect(() => assertProductionSecrets(config)).toThrow(/DATABASE_URL.*MASTER_KEY/);
  });

  it('when a value is malformed, then a clear ConfigError says which', () => {
    expect(() => loadPlatformConfig({ MASTER_KEY: Buffer.alloc(8).toString('base64') })).toThrow(/32 bytes/);
    expect(() => loadPlatformConfig({ KEY_CACHE_TTL_MS: '120000' })).toThrow(ConfigError);
  });
});
