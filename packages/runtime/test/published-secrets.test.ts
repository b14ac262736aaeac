import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isPublishedSecret } from '@platform/directory';
import { assertProductionSecrets, ConfigError, loadPlatformConfig } from '../src/config';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/** KEY=value lines of a dotenv file (single-quoted values unquoted), comments skipped. */
function dotenv(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], m[2].replace(/^'(.*)'$/s, '$1')]);
  return Object.fromEntries(entries);
}

const sample = dotenv(readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8'));

/** A production environment as docker compose builds it from a dotenv file. */
const productionEnv = (env: Record<string, string>) => ({
  NODE_ENV: 'production',
  DATABASE_URL: `postgres://auth_app:${env.AUTH_DB_PASSWORD ?? env.POSTGRES_PASSWORD}@postgres:5432/auth`,
  PLATFORM_DATABASE_URL: `postgres://auth_app:${env.AUTH_DB_PASSWORD ?? env.POSTGRES_PASSWORD}@postgres:5432/platform`,
  AMQP_URL: `amqp://${env.RABBITMQ_USER}:${env.RABBITMQ_PASSWORD}@rabbitmq:5672`,
  REDIS_URL: env.REDIS_PASSWORD ? `redis://:${env.REDIS_PASSWORD}@redis:6379` : 'redis://redis:6379',
  MASTER_KEY: env.MASTER_KEY,
  JWT_PRIVATE_KEY: env.JWT_PRIVATE_KEY,
  JWT_PUBLIC_KEY: env.JWT_PUBLIC_KEY,
});

describe('published secrets', () => {
  it.each(Object.keys(sample).filter((name) => /PASSWORD$/.test(name)))(
    'when %s of .env.example is used as a password, then it is recognised as published',
    (name) => {
      expect(isPublishedSecret(sample[name], 'password')).toBe(true);
    },
  );

  it('when the sample master key and JWT keys are used, then they are recognised, reformatted or not', () => {
    expect(isPublishedSecret(Buffer.from(sample.MASTER_KEY, 'base64'), 'bytes')).toBe(true);
    const privatePem = sample.JWT_PRIVATE_KEY.replace(/\\n/g, '\n');
    expect(isPublishedSecret(privatePem, 'pem')).toBe(true);
    expect(isPublishedSecret(sample.JWT_PUBLIC_KEY.replace(/\\n/g, '\n'), 'pem')).toBe(true);
    // The same key in another encoding is still the published key.
    const pkcs1 = createPrivateKey(privatePem).export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(isPublishedSecret(pkcs1, 'pem')).toBe(true);
  });

  it('when production starts with the values of .env.example, then it refuses, naming each and how to generate real ones', () => {
    const config = loadPlatformConfig(productionEnv(sample));
    const refusal = (() => {
      try {
        assertProductionSecrets(config, { jwtPrivateKey: true });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ConfigError);
    const message = (refusal as Error).message;
    for (const name of [
      'DATABASE_URL',
      'PLATFORM_DATABASE_URL',
      'AMQP_URL',
      'MASTER_KEY',
      'JWT_PRIVATE_KEY',
      'JWT_PUBLIC_KEY',
    ])
      expect(message).toContain(name);
    if (sample.REDIS_PASSWORD) expect(message).toContain('REDIS_URL');
    expect(message).toContain('infra/compose/generate-env.sh');
  });

  it('when production starts with what infra/compose/generate-env.sh writes, then it starts', () => {
    const generated = dotenv(
      execFileSync('sh', [path.join(REPO_ROOT, 'infra/compose/generate-env.sh')], { encoding: 'utf8' }),
    );
    const config = loadPlatformConfig(productionEnv(generated));
    expect(() => assertProductionSecrets(config, { jwtPrivateKey: true })).not.toThrow();
  });

  it('when a development start uses the sample values, then nothing is refused', () => {
    const config = loadPlatformConfig({ ...productionEnv(sample), NODE_ENV: 'development' });
    expect(() => assertProductionSecrets(config, { jwtPrivateKey: true })).not.toThrow();
  });
});
