/**
 * The admin command line (RESOLUTIONS section 9):
 *   pnpm --silent admin create-project --tenant <name> --project <name> [--json]
 *   pnpm --silent admin list-projects [--json]
 *   pnpm --silent admin rotate-keys --project-id <id> [--json]
 *   pnpm --silent admin revoke-key --api-key <public key> [--json]
 *   pnpm --silent admin set-setting --project-id <id> --key <name> --value <json> [--json]
 *   pnpm --silent admin migrate
 *   pnpm --silent admin create-operator --email <address> [--user-id <console user id>] [--actor <who>] [--json]
 *   pnpm --silent admin suspend-organisation --org-id <id> --reason <text> [--actor <who>] [--json]
 *   pnpm --silent admin lift-suspension --org-id <id> [--actor <who>] [--json]
 *     (the console's operators and suspensions, rotate-keys, revoke-key and set-setting: through the console's own code, so the same
 *      audit entries as its API; uses CONSOLE_DATABASE_URL, or the embedded server's `console`)
 *   pnpm --silent admin grant-service-role --service <name> --role <login> --password-env <VAR> [--json] [--platform-writer]
 *     (the service's runtime login: its own database and what it reads of the platform one;
 *      run with the owner's PLATFORM_DATABASE_URL after the migrations)
 * Uses PLATFORM_DATABASE_URL, or the embedded server under .data/ when it is unset.
 */
import path from 'node:path';
import { createDb, migrateLatest, startEmbeddedPostgres, withDatabase, ensureDatabase } from '@platform/db';
import {
  createProject,
  devMasterKey,
  findActiveKeyOwner,
  grantServiceRole,
  listProjects,
  platformMigrations,
  tenantOfProject,
  validateSetting,
  SecretBox,
} from '@platform/directory';
import { AppError } from '@platform/tenancy';
import {
  consoleService,
  createKey,
  createOperator,
  liftSuspension,
  revokeKey,
  suspendOrganisation,
  updateSettings,
  type AuditContext,
} from '@platform/console';
import { allMigrations, ConfigError, loadPlatformConfig } from '@platform/runtime';
import type { Knex } from 'knex';

type Flags = Record<string, string | true>;

function parseArgs(argv: string[]): { command?: string; flags: Flags } {
  const [command, ...rest] = argv;
  const flags: Flags = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--')) throw new ConfigError(`Unexpected argument: ${arg}`);
    const next = rest[i + 1];
    if (next === undefined || next.startsWith('--')) flags[arg.slice(2)] = true;
    else {
      flags[arg.slice(2)] = next;
      i++;
    }
  }
  return { command, flags };
}

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || !value) throw new ConfigError(`--${name} is required`);
  return value;
}

function print(result: object, json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

const CONSOLE_COMMANDS = new Set([
  'create-operator',
  'suspend-organisation',
  'lift-suspension',
  'rotate-keys',
  'revoke-key',
  'set-setting',
]);

/** How long a service may still accept a revoked key: the key cache's longest TTL. */
const KEY_CACHE_TTL_MS = 60_000;

/** The console's database, migrated: its operators and its audit log live there. */
async function openConsoleDb(embeddedUrl: string | undefined): Promise<Knex> {
  let url = process.env.CONSOLE_DATABASE_URL;
  if (!url && embeddedUrl) {
    await ensureDatabase(embeddedUrl, 'console');
    url = withDatabase(embeddedUrl, 'console');
  }
  if (!url) throw new ConfigError('CONSOLE_DATABASE_URL is required when PLATFORM_DATABASE_URL is set');
  const db = createDb({ url, poolMax: 2 });
  await migrateLatest(db, allMigrations(consoleService));
  return db;
}

/** The command line as an actor of the audit log. */
function cliContext(flags: Flags): AuditContext {
  const actor = typeof flags.actor === 'string' ? flags.actor : `cli:${process.env.USER ?? 'unknown'}`;
  return { actorId: null, actorEmail: actor, clientAddress: null, userAgent: 'pnpm admin', source: 'cli' };
}

async function consoleCommand(command: string, flags: Flags, db: Knex, platformDb: Knex): Promise<object> {
  const context = cliContext(flags);
  switch (command) {
    case 'create-operator':
      return createOperator(
        db,
        context,
        required(flags, 'email'),
        typeof flags['user-id'] === 'string' ? flags['user-id'] : null,
      );
    case 'rotate-keys': {
      // A new pair beside the old ones (which work until revoked): the console's key creation.
      const projectId = required(flags, 'project-id');
      const tenantId = await tenantOfProject(platformDb, projectId);
      if (!tenantId) throw new AppError('NOT_FOUND', 'Project not found');
      const keyDeps = { db, platformDb, keyCacheTtlMs: KEY_CACHE_TTL_MS };
      const key = await createKey(keyDeps, context, tenantId, projectId, 'default');
      return { apiKey: key.publicKey, secretKey: key.secretKey };
    }
    case 'revoke-key': {
      const owner = await findActiveKeyOwner(platformDb, required(flags, 'api-key'));
      if (!owner) throw new AppError('NOT_FOUND', 'No active key with that public key');
      const keyDeps = { db, platformDb, keyCacheTtlMs: KEY_CACHE_TTL_MS };
      await revokeKey(keyDeps, context, owner.tenantId, owner.projectId, owner.keyId);
      return { revoked: true };
    }
    case 'set-setting': {
      let value: unknown;
      try {
        value = JSON.parse(required(flags, 'value'));
      } catch {
        throw new ConfigError('--value must be JSON (quote strings: --value \'"https://app.example"\')');
      }
      const key = required(flags, 'key');
      validateSetting(key, value);
      const projectId = required(flags, 'project-id');
      const tenantId = await tenantOfProject(platformDb, projectId);
      if (!tenantId) throw new AppError('NOT_FOUND', 'Project not found');
      const { settings } = await updateSettings({ db, platformDb }, context, tenantId, projectId, { [key]: value });
      return { settings };
    }
    case 'suspend-organisation':
      return suspendOrganisation({ db, platformDb }, context, required(flags, 'org-id'), required(flags, 'reason'));
    default:
      return liftSuspension({ db, platformDb }, context, required(flags, 'org-id'));
  }
}

async function main(): Promise<void> {
  const { command, flags } = parseArgs(process.argv.slice(2));
  const config = loadPlatformConfig();
  const embedded = config.platformDatabaseUrl
    ? undefined
    : await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'), config.embeddedPostgresPort);
  let url = config.platformDatabaseUrl;
  if (!url) {
    await ensureDatabase(embedded!.url, 'platform');
    url = withDatabase(embedded!.url, 'platform');
  }
  const db = createDb({ url, poolMax: 2 });
  try {
    await migrateLatest(db, platformMigrations);
    const secrets = new SecretBox(config.masterKey ?? devMasterKey(config.dataDir));
    const json = flags.json === true;
    if (command && CONSOLE_COMMANDS.has(command)) {
      const consoleDb = await openConsoleDb(embedded?.url);
      try {
        print(await consoleCommand(command, flags, consoleDb, db), json);
      } finally {
        await consoleDb.destroy();
      }
      return;
    }
    switch (command) {
      case 'migrate':
        print({ migrated: true }, json);
        break;
      case 'create-project':
        print(
          await createProject(db, secrets, { tenant: required(flags, 'tenant'), project: required(flags, 'project') }),
          json,
        );
        break;
      case 'list-projects':
        print({ projects: await listProjects(db) }, json);
        break;
      case 'grant-service-role': {
        const passwordEnv = required(flags, 'password-env');
        const password = process.env[passwordEnv];
        if (!password) throw new ConfigError(`${passwordEnv} (--password-env) is not set`);
        const role = required(flags, 'role');
        const service = required(flags, 'service');
        await grantServiceRole(url, {
          role,
          password,
          database: service,
          platformDatabase: new URL(url).pathname.slice(1),
          platformWriter: flags['platform-writer'] === true,
        });
        print({ role, database: service, granted: true }, json);
        break;
      }
      default:
        throw new ConfigError(
          `Unknown command "${command ?? ''}". Commands: create-project, list-projects, rotate-keys, revoke-key, set-setting, migrate, grant-service-role, create-operator, suspend-organisation, lift-suspension`,
        );
    }
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

main().catch((error) => {
  const known = error instanceof ConfigError || error instanceof AppError;
  process.stderr.write(`${known ? error.message : String(error?.stack ?? error)}\n`);
  process.exit(known && error instanceof ConfigError ? 2 : 1);
});
