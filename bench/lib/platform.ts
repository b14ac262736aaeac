import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  createProject,
  PlatformDirectory,
  platformMigrations,
  type CreatedProject,
  SecretBox,
} from '@platform/directory';
import { createDb, ensureDatabase, migrateLatest, withDatabase } from '@platform/db';
import { createLogger, type Logger } from '@platform/http';
import type { Knex } from 'knex';
import { keyHeaders } from '@platform/testkit';
import { benchDatabaseServer } from './database';

export interface BenchPlatform {
  serverUrl: string;
  platformDb: Knex;
  directory: PlatformDirectory;
  secrets: SecretBox;
  project: CreatedProject;
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** A platform database with one project, for benchmarks. */
export async function benchPlatform(): Promise<BenchPlatform> {
  const server = await benchDatabaseServer();
  await ensureDatabase(server.url, 'bench_platform');
  const platformDb = createDb({ url: withDatabase(server.url, 'bench_platform'), poolMax: 4 });
  await migrateLatest(platformDb, platformMigrations);
  const secrets = new SecretBox(randomBytes(32));
  const project = await createProject(platformDb, secrets, {
    tenant: `bench-${randomBytes(4).toString('hex')}`,
    project: 'bench',
  });
  return {
    serverUrl: server.url,
    platformDb,
    directory: new PlatformDirectory(platformDb, secrets),
    secrets,
    project,
    headers: keyHeaders(project),
    async close() {
      await platformDb.destroy();
      await server.stop();
    },
  };
}

/** A logger that formats every line (access logs included) but writes them nowhere. */
export function discardingLogger(service: string): Logger {
  return createLogger(service, 'http', new Writable({ write: (_chunk, _enc, done) => done() }));
}
