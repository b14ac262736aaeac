import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import request from 'supertest';
import { consoleService, type ConsoleShared } from '@platform/console';
import { createTestService, testJwtKeys, type TestService } from '@platform/testkit';
import { signAccessToken } from '@platform/tenancy';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const urlOf = (db: Knex) => (db.client.config.connection as { connectionString: string }).connectionString;

let svc: TestService<ConsoleShared>;
beforeAll(async () => {
  svc = await createTestService(consoleService);
});
afterAll(() => svc.close());

/** Runs the admin command against the console's own databases, as the README shows it. */
async function admin(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('pnpm', ['--silent', 'admin', ...args, '--json'], {
    cwd: root,
    env: {
      ...process.env,
      PLATFORM_DATABASE_URL: urlOf(svc.deps.platformDb),
      CONSOLE_DATABASE_URL: urlOf(svc.deps.db),
      MASTER_KEY: randomBytes(32).toString('base64'),
    },
  });
  return JSON.parse(stdout.trim());
}

describe('the command line and the console API leave the same audit entries', () => {
  it('when a key pair is added, once through the API and once with rotate-keys, then both record key.create', async () => {
    const reserved = await svc.parts.shared.reserved.ensure();
    const owner = `Bearer ${signAccessToken(
      { userId: randomUUID(), email: 'keys@example.com', tokenVersion: 0, ...reserved },
      testJwtKeys().privateKey,
    )}`;
    const org = await request(svc.app).post('/v1/organisations').set('authorization', owner).send({ name: 'Keys' });
    const base = `/v1/organisations/${org.body.id}/projects`;
    const project = (await request(svc.app).post(base).set('authorization', owner).send({ name: 'p' })).body as {
      id: string;
    };
    await request(svc.app)
      .post(`${base}/${project.id}/keys`)
      .set('authorization', owner)
      .send({ name: 'default' })
      .expect(201);
    const rotated = await admin('rotate-keys', '--project-id', project.id);
    expect(rotated).toEqual({ apiKey: expect.stringMatching(/^pk_/), secretKey: expect.stringMatching(/^sk_/) });
    const entries = await svc.deps
      .db('audit_entries')
      .where({ project_id: project.id, action: 'key.create' })
      .orderBy('seq')
      .select('action', 'source', 'outcome', 'details');
    expect(entries.map((e) => e.source)).toEqual(['console', 'cli']);
    expect(entries.map((e) => ({ ...e, source: undefined }))).toEqual([
      expect.objectContaining({ outcome: 'success', details: expect.objectContaining({ name: 'default' }) }),
      expect.objectContaining({
        outcome: 'success',
        details: expect.objectContaining({ name: 'default', publicKey: rotated.apiKey }),
      }),
    ]);
  }, 120_000);

  it('when a setting is written and a key revoked, once through the API and once from the command line, then both record the same acts, the source aside', async () => {
    const reserved = await svc.parts.shared.reserved.ensure();
    const owner = `Bearer ${signAccessToken(
      { userId: randomUUID(), email: 'owner@example.com', tokenVersion: 0, ...reserved },
      testJwtKeys().privateKey,
    )}`;
    const org = await request(svc.app).post('/v1/organisations').set('authorization', owner).send({ name: 'Acme' });
    const newProject = async (name: string) =>
      (
        await request(svc.app)
          .post(`/v1/organisations/${org.body.id}/projects`)
          .set('authorization', owner)
          .send({ name })
      ).body as { id: string; key: { id: string; publicKey: string } };
    const viaApi = await newProject('api');
    const viaCli = await newProject('cli');

    const base = `/v1/organisations/${org.body.id}/projects`;
    await request(svc.app)
      .patch(`${base}/${viaApi.id}/settings`)
      .set('authorization', owner)
      .send({ appUrl: 'https://app.example.com' })
      .expect(200);
    await request(svc.app).delete(`${base}/${viaApi.id}/keys/${viaApi.key.id}`).set('authorization', owner).expect(200);

    expect(
      await admin('set-setting', '--project-id', viaCli.id, '--key', 'appUrl', '--value', '"https://app.example.com"'),
    ).toEqual({ settings: { appUrl: 'https://app.example.com' } });
    expect(await admin('revoke-key', '--api-key', viaCli.key.publicKey)).toEqual({ revoked: true });

    const entriesOf = async (project: { id: string; key: { id: string } }) =>
      (
        await svc.deps
          .db('audit_entries')
          .where({ project_id: project.id })
          .whereIn('action', ['settings.update', 'key.revoke'])
          .orderBy('seq')
          .select('tenant_id', 'action', 'target', 'outcome', 'details', 'source')
      ).map((e) => ({
        ...e,
        target: e.target === project.id ? 'project' : e.target === project.key.id ? 'key' : e.target,
      }));
    const api = await entriesOf(viaApi);
    const cli = await entriesOf(viaCli);
    expect(api.map((e) => e.source)).toEqual(['console', 'console']);
    expect(cli.map((e) => e.source)).toEqual(['cli', 'cli']);
    const withoutSource = (entries: typeof api) =>
      entries.map(({ source: _source, details, ...e }) => ({ ...e, details: Object.keys(details) }));
    expect(withoutSource(cli)).toEqual(withoutSource(api));
    expect(withoutSource(api)).toEqual([
      {
        tenant_id: org.body.id,
        action: 'settings.update',
        target: 'project',
        outcome: 'success',
        details: ['changed'],
      },
      { tenant_id: org.body.id, action: 'key.revoke', target: 'key', outcome: 'success', details: ['publicKey'] },
    ]);
  }, 120_000);
});
