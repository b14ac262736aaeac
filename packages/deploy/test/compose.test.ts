import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertProductionSecrets, signAccessToken, verifyAccessToken } from '@platform/tenancy';
import { composeSchemaErrors } from '../src/compose-schema';
import { dependencyClosure, interpolateAll, parseDotenv, readCompose, type ComposeFile } from '../src/compose';
import { REPO_ROOT, SERVICE_NAMES, SERVICES } from '../src/paths';
import { loadServiceConfig } from './support/service-config';

const compose = readCompose(path.join(REPO_ROOT, 'docker-compose.yml'));
const envExample = parseDotenv(readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8'));
const resolved: ComposeFile = interpolateAll(compose, envExample);

/** Settings the services read (RESOLUTIONS section 9 and the runtime): catches typos in env names. */
const KNOWN_SETTINGS = new Set([
  'NODE_ENV',
  'PORT',
  'DATABASE_URL',
  'PLATFORM_DATABASE_URL',
  'AMQP_URL',
  'REDIS_URL',
  'MASTER_KEY',
  'JWT_PRIVATE_KEY',
  'JWT_PUBLIC_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_BASE_URL',
  'STRIPE_API_BASE',
  'SENDGRID_API_BASE',
  'MAILGUN_API_BASE',
  'WEBHOOK_ALLOWED_HOSTS',
  'NEWS_FEEDS',
  'LOG_LEVEL',
  'SHUTDOWN_DRAIN_MS',
  'TRUST_PROXY',
  'KEY_CACHE_TTL_MS',
  'LLM_ROLE',
  'APP_URL',
]);

/** The llm API hands batch items to the llm-worker service (LLM_ROLE), which it brings along. */
const extraDependencies = (name: string): string[] => (name === 'llm' ? ['llm-worker'] : []);

describe('docker-compose.yml against the Compose specification', () => {
  test('when the file is validated against the compose-spec JSON schema, then it has no errors', () => {
    expect(composeSchemaErrors(compose)).toEqual([]);
  });

  test('when it is interpolated with .env.example, then the result is still valid', () => {
    expect(composeSchemaErrors(resolved)).toEqual([]);
  });

  test('when a required secret is missing from the environment, then interpolation refuses with its name', () => {
    const { MASTER_KEY: _omitted, ...withoutMasterKey } = envExample;
    expect(() => interpolateAll(compose, withoutMasterKey)).toThrow(/MASTER_KEY/);
  });

  test('when the schema sees a misspelled service key, then it reports it (the check can fail)', () => {
    const broken = structuredClone(compose);
    (broken.services.auth as Record<string, unknown>).healtcheck = broken.services.auth.healthcheck;
    expect(composeSchemaErrors(broken).join('\n')).toMatch(/additionalProperty|healtcheck/);
  });
});

describe('docker-compose.yml infrastructure', () => {
  test('when Postgres starts, then it is version 16 with the init script that creates every database', () => {
    const postgres = compose.services.postgres;
    expect(postgres.image).toMatch(/^postgres:16\b/);
    const mount = (postgres.volumes ?? []).find((v) => v.includes('/docker-entrypoint-initdb.d/'));
    expect(mount).toBeDefined();
    const script = readFileSync(path.join(REPO_ROOT, mount!.split(':')[0]), 'utf8');
    const created = [...script.matchAll(/^CREATE DATABASE (\w+);/gim)].map((m) => m[1]).sort();
    expect(created).toEqual([...SERVICE_NAMES, 'platform'].sort());
  });

  test('when RabbitMQ and Redis start, then RabbitMQ 3 has its management UI and both have health checks', () => {
    expect(compose.services.rabbitmq.image).toMatch(/^rabbitmq:3[.-].*management/);
    expect(compose.services.rabbitmq.ports).toEqual(expect.arrayContaining([expect.stringMatching(/:15672$/)]));
    for (const name of ['postgres', 'rabbitmq', 'redis'])
      expect(compose.services[name].healthcheck?.test).toBeDefined();
  });

  test('when Postgres, RabbitMQ (and its UI) and Redis are published, then only on the loopback interface', () => {
    for (const name of ['postgres', 'rabbitmq', 'redis']) {
      const ports = resolved.services[name].ports ?? [];
      expect(ports.length).toBeGreaterThan(0);
      for (const port of ports) expect(String(port)).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    }
  });

  test('when Redis starts, then it requires the password from .env, and its health check and the services use it', () => {
    const redis = resolved.services.redis;
    const command = [redis.command].flat().map(String);
    expect(command[command.indexOf('--requirepass') + 1]).toBe(envExample.REDIS_PASSWORD);
    expect(redis.environment?.REDISCLI_AUTH).toBe(envExample.REDIS_PASSWORD);
    expect(String([redis.healthcheck?.test].flat().join(' '))).toContain('PONG');
    const { REDIS_PASSWORD: _omitted, ...withoutPassword } = envExample;
    expect(() => interpolateAll(compose, withoutPassword)).toThrow(/REDIS_PASSWORD/);
  });

  test('when the admin one-shot runs, then it creates a project once the platform schema is migrated', () => {
    const admin = resolved.services.admin;
    expect(admin.build?.target).toBe('admin');
    expect(admin.restart).toBe('no');
    expect(admin.depends_on).toEqual({ 'platform-migrate': { condition: 'service_completed_successfully' } });
    const script = [admin.entrypoint, admin.command].flat().join(' ');
    expect(script).toMatch(/^\/bin\/sh -c node dist\/cli\.js create-project --tenant .+ --project /s);
    const migrate = resolved.services['platform-migrate'];
    expect(migrate.command).toEqual(['migrate', '--json']);
    expect(migrate.environment?.PLATFORM_DATABASE_URL).toMatch(/@postgres:5432\/platform$/);
  });
});

describe.each(SERVICE_NAMES)('docker-compose.yml service %s', (name) => {
  const service = resolved.services[name];
  const env = service.environment ?? {};

  test('when it is built, then it uses the Dockerfile service target with SERVICE set to its name', () => {
    expect(service.build).toMatchObject({ dockerfile: 'Dockerfile', target: 'service', args: { SERVICE: name } });
  });

  test('when it runs, then it has production settings, its own database, the platform database and every secret', () => {
    expect(env.NODE_ENV).toBe('production');
    expect(env.PORT).toBe(String(SERVICES[name]));
    expect(env.DATABASE_URL).toMatch(new RegExp(`^postgres://postgres:[^@]+@postgres:5432/${name}$`));
    expect(env.PLATFORM_DATABASE_URL).toMatch(/@postgres:5432\/platform$/);
    expect(env.AMQP_URL).toMatch(/^amqp:\/\/[^:]+:[^@]+@rabbitmq:5672$/);
    expect(env.REDIS_URL).toBe(`redis://:${envExample.REDIS_PASSWORD}@redis:6379`);
    expect(Buffer.from(env.MASTER_KEY ?? '', 'base64')).toHaveLength(32);
    expect(env.JWT_PUBLIC_KEY).toContain('BEGIN PUBLIC KEY');
    expect('JWT_PRIVATE_KEY' in env).toBe(name === 'auth');
    for (const key of Object.keys(env)) expect(KNOWN_SETTINGS.has(key) ? key : `unknown setting ${key}`).toBe(key);
  });

  test('when it starts with .env.example, then the service loads its configuration but refuses the published sample secrets', () => {
    const { platform } = loadServiceConfig(name, env);
    expect(platform.production).toBe(true);
    expect(() => assertProductionSecrets(platform, { jwtPrivateKey: name === 'auth' })).toThrow(
      /sample secrets.*generate-env\.sh/s,
    );
  });

  test('when it is healthy, then the health check probes /healthz on its port', () => {
    expect(service.healthcheck?.test).toEqual(['CMD', 'node', '/app/healthcheck.mjs']);
    expect(service.ports).toEqual([`${SERVICES[name]}:${SERVICES[name]}`]);
    expect(service.read_only).toBe(true);
  });

  test('when `docker compose up` starts it, then it waits for healthy infrastructure and finished migrations', () => {
    expect(service.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      rabbitmq: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      'platform-migrate': { condition: 'service_completed_successfully' },
      [`${name}-migrate`]: { condition: 'service_completed_successfully' },
      ...Object.fromEntries(extraDependencies(name).map((dep) => [dep, { condition: 'service_started' }])),
    });
  });

  test('when `docker compose up` names only this service, then it pulls in its dependencies and no other service', () => {
    const closure = dependencyClosure(resolved, name);
    expect([...closure].sort()).toEqual(
      ['platform-migrate', 'postgres', 'rabbitmq', 'redis', name, `${name}-migrate`, ...extraDependencies(name)].sort(),
    );
  });

  test('when its migration job runs, then it is `node dist/migrate.js` of the same image against the same database', () => {
    const job = resolved.services[`${name}-migrate`];
    expect(job.command).toEqual(['node', 'dist/migrate.js']);
    expect(job.image).toBe(service.image);
    expect(job.environment?.DATABASE_URL).toBe(env.DATABASE_URL);
    expect(job.restart).toBe('no');
  });
});

describe('docker-compose.yml llm-worker', () => {
  test('when batch workers run, then they are the llm image with LLM_ROLE=worker on the llm database, and the API has LLM_ROLE=api', () => {
    const worker = resolved.services['llm-worker'];
    const api = resolved.services.llm;
    expect(worker.image).toBe(api.image);
    expect(worker.build?.args).toEqual({ SERVICE: 'llm' });
    // as the llm service reads its whole environment (an unknown role fails its configuration)
    expect(loadServiceConfig('llm', worker.environment ?? {}).service.role).toBe('worker');
    expect(loadServiceConfig('llm', api.environment ?? {}).service.role).toBe('api');
    expect(worker.environment?.DATABASE_URL).toBe(api.environment?.DATABASE_URL);
    expect(worker.ports).toBeUndefined();
    expect(worker.healthcheck?.test).toEqual(['CMD', 'node', '/app/healthcheck.mjs']);
    expect(Object.keys(worker.depends_on ?? {}).sort()).toEqual([
      'llm-migrate',
      'platform-migrate',
      'postgres',
      'rabbitmq',
      'redis',
    ]);
  });
});

describe('.env.example', () => {
  const text = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');

  test('when someone reads it, then the sample secrets are marked development-only', () => {
    expect(text).toMatch(/DEVELOPMENT ONLY/);
    expect(text).toMatch(/never use them/i);
  });

  test('when auth runs with the sample settings, then its tokens verify everywhere', () => {
    // (every service's configuration and secrets: the per-service tests above)
    const authConfig = loadServiceConfig('auth', resolved.services.auth.environment ?? {}).platform;
    const otherConfig = loadServiceConfig('notifications', resolved.services.notifications.environment ?? {}).platform;
    const claims = {
      userId: randomUUID(),
      tenantId: randomUUID(),
      projectId: randomUUID(),
      email: 'ada@example.com',
      tokenVersion: 0,
    };
    const token = signAccessToken(claims, authConfig.jwtPrivateKey!);
    expect(verifyAccessToken(token, otherConfig.jwtPublicKey!)).toMatchObject(claims);
  });
});

describe('compose dependency closure', () => {
  test('when depends_on forms a cycle, then it is reported', () => {
    const cyclic: ComposeFile = {
      services: {
        a: { depends_on: { b: { condition: 'service_started' } } },
        b: { depends_on: { a: { condition: 'service_started' } } },
      },
    };
    expect(() => dependencyClosure(cyclic, 'a')).toThrow(/cycle/);
  });
});
