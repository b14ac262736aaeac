import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { signAccessToken, verifyAccessToken } from '@platform/tenancy';
import { assertProductionSecrets } from '@platform/runtime';
import { composeSchemaErrors } from './support/compose-schema';
import { CONSOLE, REPO_ROOT, SERVICE_NAMES, SERVICES } from './support/paths';
import { loadServiceConfig } from './support/service-config';
import { loadConsoleConfig } from '../../services/console/src/config';
import { composeConfig, dependencyClosure, type ComposeFile, type ComposeService } from './support/stock-tools';

const ENV_EXAMPLE = path.join(REPO_ROOT, '.env.example');
/** KEY=value lines of .env.example (single quotes dropped), to compare the resolved file with. */
const envExample: Record<string, string> = Object.fromEntries(
  readFileSync(ENV_EXAMPLE, 'utf8')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], m[2].replace(/^'(.*)'$/s, '$1')]),
);
/** The file as written (YAML merge keys resolved), for the Compose specification's schema. */
const raw = parse(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), {
  merge: true,
  maxAliasCount: -1,
}) as ComposeFile;

let cached: ComposeFile | undefined;
/** `docker compose config` with .env.example: the file as Compose runs it. */
function resolved(): ComposeFile {
  if (cached) return cached;
  const { config, error } = composeConfig(ENV_EXAMPLE);
  if (!config) throw new Error(`compose config refused .env.example: ${error}`);
  return (cached = config);
}

/** `config` with .env.example less one variable: the tool's refusal. */
function refusalWithout(name: string): string | undefined {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'compose-env-')), '.env');
  writeFileSync(
    file,
    readFileSync(ENV_EXAMPLE, 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith(`${name}=`))
      .join('\n'),
  );
  return composeConfig(file).error;
}

/** A published port as `[host_ip:]published:target`, whichever syntax the tool printed. */
const portOf = (port: NonNullable<ComposeService['ports']>[number]) =>
  typeof port === 'string'
    ? port.replace(/\/tcp$/, '')
    : `${port.host_ip ? `${port.host_ip}:` : ''}${port.published}:${port.target}`;
const volumeSource = (volume: NonNullable<ComposeService['volumes']>[number]) =>
  typeof volume === 'string' ? volume.split(':')[0] : volume.source;
const volumeTarget = (volume: NonNullable<ComposeService['volumes']>[number]) =>
  typeof volume === 'string' ? volume.split(':')[1] : volume.target;
/** depends_on as `{ name: { condition } }` (Compose v2 also prints `required` and `restart`). */
const conditionsOf = (service: ComposeService) =>
  Object.fromEntries(Object.entries(service.depends_on ?? {}).map(([name, { condition }]) => [name, { condition }]));
const shellOf = (service: ComposeService) => [service.entrypoint, service.command].flat().filter(Boolean).join(' ');

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
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_SDK_DISABLED',
]);

/** The llm API hands batch items to the llm-worker service (LLM_ROLE), which it brings along. */
const extraDependencies = (name: string): string[] => (name === 'llm' ? ['llm-worker'] : []);
/** Every container that runs a service's code: the six APIs and the LLM batch workers. */
const WORKLOADS = [...SERVICE_NAMES, 'llm-worker'];
const serviceOf = (workload: string) =>
  (workload === 'llm-worker' ? 'llm' : workload) as (typeof SERVICE_NAMES)[number];
/** The owner's password (POSTGRES_PASSWORD): migrations and the admin one-shots only. */
const OWNER = () => `postgres:${envExample.POSTGRES_PASSWORD}@`;

describe('docker-compose.yml against the Compose specification', () => {
  test('when the file is validated against the compose-spec JSON schema, then it has no errors', () => {
    expect(composeSchemaErrors(raw)).toEqual([]);
  });

  test('when the schema sees a misspelled service key, then it reports it (the check can fail)', () => {
    const broken = structuredClone(raw);
    (broken.services.auth as Record<string, unknown>).healtcheck = broken.services.auth.healthcheck;
    expect(composeSchemaErrors(broken).join('\n')).toMatch(/additionalProperty|healtcheck/);
  });
});

function composeTests(): void {
  describe('docker-compose.yml as `docker compose config` reads it', () => {
    test('when it is interpolated with .env.example, then Compose accepts it and the result is still valid', () => {
      expect(Object.keys(resolved().services).length).toBeGreaterThan(15);
      expect(composeSchemaErrors(resolved())).toEqual([]);
    });

    test.each(['MASTER_KEY', 'REDIS_PASSWORD', 'POSTGRES_PASSWORD', 'AUTH_DB_PASSWORD', 'NOTIFICATIONS_DB_PASSWORD'])(
      'when %s is missing from the environment, then Compose refuses, naming it',
      (name) => {
        expect(refusalWithout(name)).toMatch(new RegExp(`set ${name} in \\.env`));
      },
    );
  });

  describe('docker-compose.yml infrastructure', () => {
    test('when Postgres starts, then it is version 16 with the init script that creates every database', () => {
      const postgres = resolved().services.postgres;
      expect(postgres.image).toMatch(/^postgres:16\b/);
      const mount = (postgres.volumes ?? []).find((v) => volumeTarget(v).startsWith('/docker-entrypoint-initdb.d/'));
      expect(mount).toBeDefined();
      const script = readFileSync(path.resolve(REPO_ROOT, volumeSource(mount!)), 'utf8');
      const created = [...script.matchAll(/^CREATE DATABASE (\w+);/gim)].map((m) => m[1]).sort();
      expect(created).toEqual([...SERVICE_NAMES, CONSOLE.name, 'platform'].sort());
    });

    test('when RabbitMQ and Redis start, then RabbitMQ 3 has its management UI and all three have health checks', () => {
      expect(resolved().services.rabbitmq.image).toMatch(/^rabbitmq:3[.-].*management/);
      expect((resolved().services.rabbitmq.ports ?? []).map(portOf)).toContainEqual(expect.stringMatching(/:15672$/));
      for (const name of ['postgres', 'rabbitmq', 'redis'])
        expect(resolved().services[name].healthcheck?.test).toBeDefined();
    });

    test('when Postgres, RabbitMQ (and its UI) and Redis are published, then only on the loopback interface', () => {
      for (const name of ['postgres', 'rabbitmq', 'redis']) {
        const ports = (resolved().services[name].ports ?? []).map(portOf);
        expect(ports.length).toBeGreaterThan(0);
        for (const port of ports) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
      }
    });

    test('when Redis starts, then it requires the password from .env, and its health check and the services use it', () => {
      const redis = resolved().services.redis;
      const command = [redis.command].flat().map(String);
      expect(command[command.indexOf('--requirepass') + 1]).toBe(envExample.REDIS_PASSWORD);
      expect(redis.environment?.REDISCLI_AUTH).toBe(envExample.REDIS_PASSWORD);
      expect(String([redis.healthcheck?.test].flat().join(' '))).toContain('PONG');
    });

    test('when the admin one-shot runs, then it creates a project once the platform schema is migrated, as the owner', () => {
      const admin = resolved().services.admin;
      expect(admin.build?.target).toBe('admin');
      expect(admin.restart).toBe('no');
      expect(conditionsOf(admin)).toEqual({ 'platform-migrate': { condition: 'service_completed_successfully' } });
      expect(shellOf(admin)).toMatch(/^\/bin\/sh -c node dist\/cli\.js create-project --tenant .+ --project /s);
      const migrate = resolved().services['platform-migrate'];
      expect(migrate.command).toEqual(['migrate', '--json']);
      expect(migrate.environment?.PLATFORM_DATABASE_URL).toBe(`postgres://${OWNER()}postgres:5432/platform`);
      expect(admin.environment?.PLATFORM_DATABASE_URL).toBe(migrate.environment?.PLATFORM_DATABASE_URL);
    });
  });

  describe('docker-compose.yml database logins (least privilege)', () => {
    test('when .env comes from generate-env.sh, then Compose accepts it and every service starts in production with its own login', () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'compose-env-')), '.env');
      writeFileSync(
        file,
        execFileSync('sh', [path.join(REPO_ROOT, 'infra/compose/generate-env.sh')], { encoding: 'utf8' }),
      );
      const { config, error } = composeConfig(file);
      expect(error).toBeUndefined();
      const urls = new Set<string>();
      for (const workload of WORKLOADS) {
        const env = config!.services[workload].environment ?? {};
        const { platform } = loadServiceConfig(serviceOf(workload), env);
        expect(() => assertProductionSecrets(platform, { jwtPrivateKey: workload === 'auth' })).not.toThrow();
        expect(new URL(env.DATABASE_URL ?? '').username).toBe(`${serviceOf(workload)}_app`);
        urls.add(env.DATABASE_URL ?? '');
      }
      // llm-worker shares llm's login; every other service has its own password
      expect(new Set([...urls].map((url) => new URL(url).password)).size).toBe(SERVICE_NAMES.length);
    });

    test('when the db-roles one-shot runs, then it grants each service its own login, as the owner, after the platform schema', () => {
      const roles = resolved().services['db-roles'];
      expect(roles.build?.target).toBe('admin');
      expect(roles.restart).toBe('no');
      expect(conditionsOf(roles)).toEqual({ 'platform-migrate': { condition: 'service_completed_successfully' } });
      expect(roles.environment?.PLATFORM_DATABASE_URL).toBe(`postgres://${OWNER()}postgres:5432/platform`);
      const grants = [
        ...shellOf(roles).matchAll(
          /node dist\/cli\.js grant-service-role --service (\w+) --role (\w+) --password-env (\w+) --json/g,
        ),
      ].map(([, service, role, passwordEnv]) => ({ service, role, password: roles.environment?.[passwordEnv] }));
      expect(grants).toEqual(
        [...SERVICE_NAMES, CONSOLE.name].map((service) => ({
          service,
          role: `${service}_app`,
          password: envExample[`${service.toUpperCase()}_DB_PASSWORD`],
        })),
      );
      // each login has a password of its own; only the console's may write the platform database
      expect(new Set(grants.map((g) => g.password)).size).toBe(SERVICE_NAMES.length + 1);
      expect([...shellOf(roles).matchAll(/--service (\w+)[^&]*--platform-writer/g)].map((m) => m[1])).toEqual([
        CONSOLE.name,
      ]);
    });

    test.each(WORKLOADS)(
      'when %s connects to Postgres, then with its own login to its own database and the platform one, never the owner',
      (workload) => {
        const service = serviceOf(workload);
        const env = resolved().services[workload].environment ?? {};
        const login = `${service}_app:${envExample[`${service.toUpperCase()}_DB_PASSWORD`]}@`;
        expect(env.DATABASE_URL).toBe(`postgres://${login}postgres:5432/${service}`);
        expect(env.PLATFORM_DATABASE_URL).toBe(`postgres://${login}postgres:5432/platform`);
        const values = Object.values(env).map(String);
        expect(values.filter((v) => v.includes(OWNER()) || v.includes(envExample.POSTGRES_PASSWORD))).toEqual([]);
      },
    );

    test.each(WORKLOADS)('when %s starts, then the logins have been granted first', (workload) => {
      expect(conditionsOf(resolved().services[workload])['db-roles']).toEqual({
        condition: 'service_completed_successfully',
      });
    });
  });

  describe.each(SERVICE_NAMES)('docker-compose.yml service %s', (name) => {
    const service = () => resolved().services[name];
    const env = () => service().environment ?? {};

    test('when it is built, then it uses the Dockerfile service target with SERVICE set to its name', () => {
      expect(service().build).toMatchObject({ dockerfile: 'Dockerfile', target: 'service', args: { SERVICE: name } });
    });

    test('when it runs, then it has production settings, the broker, Redis and every secret', () => {
      expect(env().NODE_ENV).toBe('production');
      expect(env().PORT).toBe(String(SERVICES[name]));
      expect(env().AMQP_URL).toMatch(/^amqp:\/\/[^:]+:[^@]+@rabbitmq:5672$/);
      expect(env().REDIS_URL).toBe(`redis://:${envExample.REDIS_PASSWORD}@redis:6379`);
      expect(Buffer.from(env().MASTER_KEY ?? '', 'base64')).toHaveLength(32);
      expect(env().JWT_PUBLIC_KEY).toContain('BEGIN PUBLIC KEY');
      expect('JWT_PRIVATE_KEY' in env()).toBe(name === 'auth');
      for (const key of Object.keys(env())) expect(KNOWN_SETTINGS.has(key) ? key : `unknown setting ${key}`).toBe(key);
    });

    test('when it starts with .env.example, then the service loads its configuration but refuses the published sample secrets', () => {
      const { platform } = loadServiceConfig(name, env());
      expect(platform.production).toBe(true);
      expect(() => assertProductionSecrets(platform, { jwtPrivateKey: name === 'auth' })).toThrow(
        /sample secrets.*DATABASE_URL.*generate-env\.sh/s,
      );
    });

    test('when it is healthy, then the health check probes /healthz on its port', () => {
      expect(service().healthcheck?.test).toEqual(['CMD', 'node', '/app/healthcheck.mjs']);
      expect((service().ports ?? []).map(portOf)).toEqual([`${SERVICES[name]}:${SERVICES[name]}`]);
      expect(service().read_only).toBe(true);
    });

    test('when `docker compose up` starts it, then it waits for healthy infrastructure, the logins and finished migrations', () => {
      expect(conditionsOf(service())).toEqual({
        postgres: { condition: 'service_healthy' },
        rabbitmq: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        'platform-migrate': { condition: 'service_completed_successfully' },
        'db-roles': { condition: 'service_completed_successfully' },
        [`${name}-migrate`]: { condition: 'service_completed_successfully' },
        ...Object.fromEntries(extraDependencies(name).map((dep) => [dep, { condition: 'service_started' }])),
      });
    });

    test('when `docker compose up` names only this service, then it pulls in its dependencies and no other service', () => {
      const closure = dependencyClosure(resolved(), name);
      expect([...closure].sort()).toEqual(
        [
          'platform-migrate',
          'db-roles',
          'postgres',
          'rabbitmq',
          'redis',
          name,
          `${name}-migrate`,
          ...extraDependencies(name),
        ].sort(),
      );
    });

    test('when its migration job runs, then it is `node dist/migrate.js` of the same image against its database, as the owner', () => {
      const job = resolved().services[`${name}-migrate`];
      expect(job.command).toEqual(['node', 'dist/migrate.js']);
      expect(job.image).toBe(service().image);
      expect(job.environment?.DATABASE_URL).toBe(`postgres://${OWNER()}postgres:5432/${name}`);
      expect(job.restart).toBe('no');
      // the logins first, so that the tables it creates get their grants
      expect(conditionsOf(job)['db-roles']).toEqual({ condition: 'service_completed_successfully' });
    });
  });

  describe('docker-compose.yml llm-worker', () => {
    test('when batch workers run, then they are the llm image with LLM_ROLE=worker on the llm database, and the API has LLM_ROLE=api', () => {
      const worker = resolved().services['llm-worker'];
      const api = resolved().services.llm;
      expect(worker.image).toBe(api.image);
      expect(worker.build?.args).toEqual({ SERVICE: 'llm' });
      // as the llm service reads its whole environment (an unknown role fails its configuration)
      expect(loadServiceConfig('llm', worker.environment ?? {}).service.role).toBe('worker');
      expect(loadServiceConfig('llm', api.environment ?? {}).service.role).toBe('api');
      expect(worker.environment?.DATABASE_URL).toBe(api.environment?.DATABASE_URL);
      expect(worker.ports).toBeUndefined();
      expect(worker.healthcheck?.test).toEqual(['CMD', 'node', '/app/healthcheck.mjs']);
      expect(Object.keys(worker.depends_on ?? {}).sort()).toEqual([
        'db-roles',
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
      const authConfig = loadServiceConfig('auth', resolved().services.auth.environment ?? {}).platform;
      const otherConfig = loadServiceConfig(
        'notifications',
        resolved().services.notifications.environment ?? {},
      ).platform;
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
}

composeTests();

describe('docker-compose.yml service console (the control plane)', () => {
  const service = () => resolved().services.console;
  const env = () => service().environment ?? {};

  test('when it is built and run, then it is the service image on port 4000 with its own login to both databases and the signing key', () => {
    expect(service().build).toMatchObject({
      dockerfile: 'Dockerfile',
      target: 'service',
      args: { SERVICE: 'console' },
    });
    expect(env().PORT).toBe(String(CONSOLE.port));
    expect((service().ports ?? []).map(portOf)).toEqual([`${CONSOLE.port}:${CONSOLE.port}`]);
    const login = `console_app:${envExample.CONSOLE_DB_PASSWORD}@`;
    expect(env().DATABASE_URL).toBe(`postgres://${login}postgres:5432/console`);
    expect(env().PLATFORM_DATABASE_URL).toBe(`postgres://${login}postgres:5432/platform`);
    expect(
      Object.values(env())
        .map(String)
        .filter((v) => v.includes(envExample.POSTGRES_PASSWORD)),
    ).toEqual([]);
    expect(env().JWT_PRIVATE_KEY).toContain('BEGIN PRIVATE KEY');
    expect(env().CONSOLE_AUTH_URL).toBe('http://auth:4001/v1');
    expect(() => loadConsoleConfig(env() as NodeJS.ProcessEnv)).not.toThrow();
    expect(service().healthcheck?.test).toEqual(['CMD', 'node', '/app/healthcheck.mjs']);
    expect(service().read_only).toBe(true);
  });

  test('when `docker compose up` starts it, then after the logins, its migrations and a healthy Authentication', () => {
    expect(conditionsOf(service())).toMatchObject({
      'db-roles': { condition: 'service_completed_successfully' },
      'console-migrate': { condition: 'service_completed_successfully' },
      auth: { condition: 'service_healthy' },
    });
    const migrate = resolved().services['console-migrate'];
    expect(migrate.command).toEqual(['node', 'dist/migrate.js']);
    expect(migrate.environment?.DATABASE_URL).toBe(`postgres://${OWNER()}postgres:5432/console`);
  });
});
