import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDb } from '@platform/db';
import { PlatformDirectory, SecretBox } from '@platform/directory';
import { createTestDatabase } from '@platform/testkit';
import { sha256Hex } from '@platform/tenancy';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const masterKey = randomBytes(32);
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let consoleDatabase: Awaited<ReturnType<typeof createTestDatabase>>;

/** Runs the admin command exactly as the README shows it. */
async function admin(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('pnpm', ['--silent', 'admin', ...args, '--json'], {
    cwd: root,
    env: {
      ...process.env,
      PLATFORM_DATABASE_URL: database.url,
      CONSOLE_DATABASE_URL: consoleDatabase.url,
      MASTER_KEY: masterKey.toString('base64'),
    },
  });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

beforeAll(async () => {
  database = await createTestDatabase('admin');
  consoleDatabase = await createTestDatabase('admin_console');
});

afterAll(async () => {
  await database.drop();
  await consoleDatabase.drop();
});

describe('admin command line', () => {
  // Seven processes, each starting pnpm and tsx: seconds apiece on a busy machine.
  it('when a project is created, rotated, revoked and configured, then each step prints one JSON line and takes effect', async () => {
    const created = await admin('create-project', '--tenant', 'acme', '--project', 'shop');
    expect(Object.keys(created).sort()).toEqual(['apiKey', 'projectId', 'secretKey', 'tenantId', 'webhookSecret']);
    expect(created.apiKey).toMatch(/^pk_/);
    expect(created.secretKey).toMatch(/^sk_/);

    const second = await admin('create-project', '--tenant', 'acme', '--project', 'blog');
    expect(second.tenantId).toBe(created.tenantId);

    const db = createDb({ url: database.url, poolMax: 1 });
    try {
      const stored = await db('api_keys').where({ public_key: created.apiKey }).first('secret_hash');
      expect(stored.secret_hash).toBe(sha256Hex(created.secretKey as string));
      expect(JSON.stringify(await db('api_keys').select())).not.toContain(created.secretKey as string);

      const project = await db('projects').where({ id: created.projectId }).first('webhook_secret_enc');
      expect(new SecretBox(masterKey).decrypt(project.webhook_secret_enc)).toBe(created.webhookSecret);

      const listed = (await admin('list-projects')) as { projects: { projectName: string; tenantName: string }[] };
      expect(listed.projects.map((p) => `${p.tenantName}/${p.projectName}`)).toEqual(['acme/blog', 'acme/shop']);

      const rotated = await admin('rotate-keys', '--project-id', created.projectId as string);
      expect(rotated.apiKey).not.toBe(created.apiKey);
      const directory = new PlatformDirectory(db, undefined, { ttlMs: 0 });
      expect(await directory.findKey(created.apiKey as string)).not.toBeNull();

      expect(await admin('revoke-key', '--api-key', created.apiKey as string)).toEqual({ revoked: true });
      expect(await directory.findKey(created.apiKey as string)).toBeNull();
      expect(await directory.findKey(rotated.apiKey as string)).not.toBeNull();

      const settings = await admin(
        'set-setting',
        '--project-id',
        created.projectId as string,
        '--key',
        'appUrl',
        '--value',
        '"https://app.example.com"',
      );
      expect(settings).toEqual({ settings: { appUrl: 'https://app.example.com' } });
      const more = await admin(
        'set-setting',
        '--project-id',
        created.projectId as string,
        '--key',
        'requireEmailVerification',
        '--value',
        'true',
      );
      expect(more).toEqual({ settings: { appUrl: 'https://app.example.com', requireEmailVerification: true } });
      // The CMS README's setting: the command line knows it too.
      const language = await admin(
        'set-setting',
        '--project-id',
        created.projectId as string,
        '--key',
        'searchLanguage',
        '--value',
        '"english"',
      );
      expect(language).toMatchObject({ settings: { searchLanguage: 'english' } });
    } finally {
      await db.destroy();
    }
  }, 120_000);

  it('when a setting is unknown (prototype names included) or its value is not JSON, then the command fails with a message', async () => {
    await expect(
      admin('set-setting', '--project-id', randomBytes(4).toString('hex'), '--key', 'colour', '--value', '"red"'),
    ).rejects.toThrow(/Unknown setting/);
    for (const key of ['constructor', '__proto__'])
      await expect(
        admin('set-setting', '--project-id', randomBytes(4).toString('hex'), '--key', key, '--value', '"red"'),
      ).rejects.toThrow(/Unknown setting/);
    await expect(admin('set-setting', '--project-id', 'x', '--key', 'appUrl', '--value', 'not json')).rejects.toThrow(
      /must be JSON/,
    );
  }, 120_000);

  it("when an operator is created and an organisation suspended from the command line, then it goes through the console's code: same effect, same audit entries", async () => {
    const created = await admin('create-project', '--tenant', 'suspendable', '--project', 'app');
    expect(await admin('create-operator', '--email', 'Ops@Example.com', '--actor', 'bootstrap')).toEqual({
      email: 'ops@example.com',
      created: true,
    });
    const suspended = await admin(
      'suspend-organisation',
      '--org-id',
      created.tenantId as string,
      '--reason',
      'abuse report',
    );
    expect(suspended).toMatchObject({ id: created.tenantId, suspended: true, suspensionReason: 'abuse report' });

    const db = createDb({ url: database.url, poolMax: 1 });
    const consoleDb = createDb({ url: consoleDatabase.url, poolMax: 1 });
    try {
      const directory = new PlatformDirectory(db, undefined, { ttlMs: 0 });
      expect(await directory.findKey(created.apiKey as string)).toMatchObject({ suspended: true });
      await admin('lift-suspension', '--org-id', created.tenantId as string);
      directory.clearCache();
      expect(await directory.findKey(created.apiKey as string)).not.toHaveProperty('suspended');
      expect(await consoleDb('operators').pluck('email')).toEqual(['ops@example.com']);
      const audit = await consoleDb('audit_entries')
        .whereIn('action', ['operator.create', 'organisation.suspend', 'organisation.unsuspend'])
        .orderBy('seq')
        .select('action', 'source', 'actor_email', 'tenant_id');
      expect(audit).toEqual([
        { action: 'operator.create', source: 'cli', actor_email: 'bootstrap', tenant_id: null },
        {
          action: 'organisation.suspend',
          source: 'cli',
          actor_email: expect.stringMatching(/^cli:/),
          tenant_id: created.tenantId,
        },
        {
          action: 'organisation.unsuspend',
          source: 'cli',
          actor_email: expect.stringMatching(/^cli:/),
          tenant_id: created.tenantId,
        },
      ]);
    } finally {
      await db.destroy();
      await consoleDb.destroy();
    }
  }, 120_000);
});
