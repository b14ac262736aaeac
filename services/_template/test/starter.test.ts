import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDb, migrateLatest } from '@platform/db';
import { createProject, platformMigrations, SecretBox } from '@platform/directory';
import { createTestDatabase, keyHeaders, waitFor } from '@platform/testkit';
import { freePort } from '../../../e2e/harness/processes';

const ROOT = path.resolve(__dirname, '../../..');
const TEMPLATE = path.join(ROOT, 'services', '_template');
const run = promisify(execFile);

jest.setTimeout(180_000);

let scratch: string;
let service: string;
let env: NodeJS.ProcessEnv;
let headers: Record<string, string>;
let child: ChildProcess | undefined;
const databases: { drop(): Promise<void> }[] = [];

/** A new service as one starts it: the template copied beside the others' layout, its packages linked. */
async function copyTemplate(): Promise<string> {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'starter-'));
  const dir = path.join(scratch, 'services', 'starter');
  const leftOut = new Set(['node_modules', 'dist']);
  await cp(TEMPLATE, dir, {
    recursive: true,
    filter: (from) => !leftOut.has(path.relative(TEMPLATE, from).split(path.sep)[0]),
  });
  await symlink(path.join(TEMPLATE, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Where the workspace packages' npm dependencies are linked, for the bundle's `require`s. */
async function packagesNodeModules(): Promise<string> {
  const packages = await readdir(path.join(ROOT, 'packages'));
  return [TEMPLATE, ...packages.map((name) => path.join(ROOT, 'packages', name))]
    .map((dir) => path.join(dir, 'node_modules'))
    .join(path.delimiter);
}

beforeAll(async () => {
  service = await copyTemplate();
  const masterKey = randomBytes(32);
  const [own, platform] = await Promise.all([createTestDatabase('starter'), createTestDatabase('starter_platform')]);
  databases.push(own, platform);
  const platformDb = createDb({ url: platform.url, poolMax: 1 });
  try {
    await migrateLatest(platformDb, platformMigrations);
    const project = await createProject(platformDb, new SecretBox(masterKey), {
      tenant: `starter-${randomBytes(4).toString('hex')}`,
      project: 'starter',
    });
    headers = { ...keyHeaders(project), 'content-type': 'application/json' };
  } finally {
    await platformDb.destroy();
  }
  env = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: own.url,
    PLATFORM_DATABASE_URL: platform.url,
    MASTER_KEY: masterKey.toString('base64'),
    // The bundle leaves npm packages outside, as the image's node_modules holds them: here, the packages' own.
    NODE_PATH: await packagesNodeModules(),
    PORT: String(await freePort()),
  };
  for (const name of ['AMQP_URL', 'REDIS_URL']) delete env[name];
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(databases.map((database) => database.drop()));
  await rm(scratch, { recursive: true, force: true });
});

describe('the service starter', () => {
  it('when the template is copied to a new service, then it builds, migrates, starts, answers its routes and stops cleanly', async () => {
    await run(process.execPath, [path.join(ROOT, 'infra', 'docker', 'bundle.mjs'), service], { cwd: ROOT });
    await run(process.execPath, [path.join(service, 'dist', 'migrate.js')], { cwd: service, env });

    let output = '';
    const started = spawn(process.execPath, ['--enable-source-maps', path.join(service, 'dist', 'main.js')], {
      cwd: service,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | string>((resolve) =>
      started.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
    );
    const url = `http://127.0.0.1:${env.PORT}`;
    await waitFor(
      async () => {
        if (started.exitCode !== null) throw new Error(`the starter exited during start-up:\n${output}`);
        return (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );

    const created = await fetch(`${url}/v1/notes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Hi', body: 'First' }),
    });
    expect(created.status).toBe(201);
    const note = (await created.json()) as { id: string };
    expect(note).toMatchObject({ title: 'Hi', body: 'First' });

    const read = await fetch(`${url}/v1/notes/${note.id}`, { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(note);
    expect((await fetch(`${url}/v1/notes/${note.id}`)).status).toBe(401);

    const contract = (await (await fetch(`${url}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(contract.paths).sort()).toEqual(['/notes', '/notes/{id}']);

    started.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
