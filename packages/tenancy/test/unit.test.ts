import { generateKeyPairSync, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { redact } from '@platform/http';
import {
  accessTokenAudience,
  loadPlatformConfig,
  assertProductionSecrets,
  ConfigError,
  SecretBox,
  signAccessToken,
  TtlCache,
  verifyAccessToken,
} from '../src';
import { toAppError } from '../src/error-handler';

describe('SecretBox', () => {
  it('when a secret is sealed, then only the same key opens it and the text is not visible', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.encrypt('sk_live_very_secret');
    expect(sealed).not.toContain('sk_live');
    expect(box.decrypt(sealed)).toBe('sk_live_very_secret');
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed)).toThrow();
  });

  it('when the ciphertext is tampered with, then decrypting fails', () => {
    const box = new SecretBox(randomBytes(32));
    const parts = box.encrypt('hello').split('.');
    parts[4] = Buffer.from('jello').toString('base64url');
    expect(() => box.decrypt(parts.join('.'))).toThrow();
  });

  it('when a new master key is added, then secrets sealed under the old one still open', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const sealed = new SecretBox({ old: oldKey }).encrypt('value');
    const rotated = new SecretBox({ old: oldKey, new: newKey }, 'new');
    expect(rotated.decrypt(sealed)).toBe('value');
    expect(rotated.encrypt('x').split('.')[1]).toBe('new');
  });
});

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

describe('log redaction', () => {
  it('when a log line carries secrets at any depth, then their values are replaced', () => {
    const out = redact({
      apiKey: 'k',
      nested: { password: 'p', config: { secretKey: 's', name: 'ok' } },
      list: [{ token: 't' }],
    });
    expect(JSON.stringify(out)).not.toMatch(/"k"|"p"|"s"|"t"/);
    expect(out).toMatchObject({ nested: { config: { name: 'ok' } } });
  });
  it('when a text quotes a webhook secret in standard base64, then none of it is left', () => {
    const secret = 'whsec_ab+/cdEFgh+ijk/lmnopQRSTuvwx+yz0123456789ABC/de=';
    expect(redact(`delivery failed for ${secret} today`)).toBe('delivery failed for [REDACTED] today');
  });
});

describe('TtlCache', () => {
  it('when an entry expires or the cache is full, then it is gone', () => {
    const cache = new TtlCache<number>(2);
    cache.set('a', 1, 100, 0);
    expect(cache.get('a', 50)).toBe(1);
    expect(cache.get('a', 150)).toBeUndefined();
    cache.set('b', 2, 100, 0);
    cache.set('c', 3, 100, 0);
    cache.set('d', 4, 100, 0);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('d', 1)).toBe(4);
  });
});

describe('errors from an unreachable database', () => {
  it.each([
    'select "id" from "users" where "email" = $1 - Connection terminated unexpectedly',
    'ROLLBACK - Client has encountered a connection error and is not queryable',
    'Connection terminated unexpectedly',
  ])('when knex or pg reports "%s", then the answer is 503 with Retry-After', (message) => {
    const error = toAppError(new Error(message));
    expect(error.status).toBe(503);
    expect(error.headers?.['Retry-After']).toMatch(/^\d+$/);
  });

  it('when a query fails for another reason, then it stays a 500', () => {
    expect(toAppError(new Error('select 1 - column "x" does not exist')).status).toBe(500);
  });
});

describe('access token audience', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const claims = { userId: 'u1', tenantId: 't1', projectId: 'p1', email: 'a@example.com', tokenVersion: 0 };

  it('when a token names its project as audience, with sid and aal, then it verifies with them', () => {
    const token = signAccessToken({ ...claims, sessionId: 's1', aal: 'aal2' }, privateKey);
    expect(verifyAccessToken(token, publicKey)).toMatchObject({ ...claims, sessionId: 's1', aal: 'aal2' });
  });

  it('when the audience names another project, then the token is refused', () => {
    const forged = jwt.sign(
      { tid: 't1', pid: 'p1', typ: 'access', aud: accessTokenAudience('p2') },
      privateKey.export({ type: 'pkcs8', format: 'pem' }),
      { algorithm: 'RS256', subject: 'u1', issuer: 'platform-auth', expiresIn: 60 },
    );
    expect(verifyAccessToken(forged, publicKey)).toBeNull();
  });

  it('when a token from before audiences has none, then it is still accepted', () => {
    const legacy = jwt.sign(
      { tid: 't1', pid: 'p1', typ: 'access' },
      privateKey.export({ type: 'pkcs8', format: 'pem' }),
      { algorithm: 'RS256', subject: 'u1', issuer: 'platform-auth', expiresIn: 60 },
    );
    expect(verifyAccessToken(legacy, publicKey)).toMatchObject({ userId: 'u1', projectId: 'p1' });
  });
});
