import type { Knex } from 'knex';
import { createDb, withDatabase } from '@platform/db';

/**
 * What a service reads of the platform database (PlatformDirectory: key checks, project lookups,
 * webhook secrets). Nothing else there is granted; of the tenants only their suspension.
 */
export const PLATFORM_READS: Record<string, string[]> = {
  api_keys: ['public_key', 'secret_hash', 'project_id', 'revoked_at', 'expires_at', 'last_used_at'],
  projects: ['id', 'tenant_id', 'settings', 'webhook_secret_enc', 'deleted_at'],
  // Only whether the tenant is suspended: the key check refuses a suspended tenant's keys.
  tenants: ['id', 'suspended_at'],
};

/** The one platform write a service makes: a key's approximate last use (PlatformDirectory). */
export const PLATFORM_WRITES: Record<string, string[]> = {
  api_keys: ['last_used_at'],
};

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface ServiceRole {
  /** The login the service runs with, e.g. `auth_app`. */
  role: string;
  password: string;
  /** The service's own database. */
  database: string;
  /** Defaults to `platform`. */
  platformDatabase?: string;
  /** The console: it writes tenants, projects and keys through @platform/directory (no deletes). */
  platformWriter?: boolean;
}

/** What the platform's writer (the console) may change there, beyond PLATFORM_READS. */
export const PLATFORM_WRITER_TABLES = ['tenants', 'projects', 'api_keys'];

/**
 * Creates (or updates) a service's runtime login: it may connect to its own database (and use
 * its tables' rows, including tables migrations add later) and read PLATFORM_READS of the
 * platform database; no other database accepts it. Migrations and the admin command keep the
 * owner's login. `adminUrl` is an owner's (superuser's) connection to any database of the server.
 */
export async function grantServiceRole(adminUrl: string, spec: ServiceRole): Promise<void> {
  const platform = spec.platformDatabase ?? 'platform';
  for (const name of [spec.role, spec.database, platform])
    if (!SAFE_NAME.test(name)) throw new Error(`unsafe name: ${name}`);
  // Migration jobs of several services may grant at once (Kubernetes runs them side by side);
  // they change the same catalogue rows (the platform database's ACL), which Postgres refuses to
  // update concurrently, so they take turns on a lock in the platform database.
  await withDb(withDatabase(adminUrl, platform), (platformDb) =>
    platformDb.transaction(async (tx) => {
      await tx.raw('select pg_advisory_xact_lock(hashtext(?))', ['grant-service-role']);
      await withDb(withDatabase(adminUrl, spec.database), async (db) => {
        const exists = await db('pg_roles').where({ rolname: spec.role }).first('rolname');
        // Identifiers are checked against SAFE_NAME above; the password is a bound literal.
        await db.raw(`${exists ? 'ALTER' : 'CREATE'} ROLE ?? LOGIN PASSWORD ${quoteLiteral(spec.password)}`, [
          spec.role,
        ]);
        for (const database of [spec.database, platform]) {
          await db.raw('REVOKE ALL ON DATABASE ?? FROM PUBLIC', [database]);
          await db.raw('GRANT CONNECT ON DATABASE ?? TO ??', [database, spec.role]);
        }
        await db.raw('GRANT USAGE ON SCHEMA public TO ??', [spec.role]);
        await db.raw('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ??', [spec.role]);
        await db.raw('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ??', [spec.role]);
        // Tables later migrations create (as this owner) get the same grants.
        await db.raw('ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ??', [
          spec.role,
        ]);
        await db.raw('ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ??', [
          spec.role,
        ]);
        // A table its migration marks append-only (an audit log) keeps its rows: no UPDATE, DELETE or TRUNCATE.
        const appendOnly = await db.raw<{ rows: { name: string }[] }>(
          `select c.relname as name from pg_class c join pg_description d on d.objoid = c.oid and d.objsubid = 0
           where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace and d.description like 'append-only%'`,
        );
        for (const { name } of appendOnly.rows)
          await db.raw('REVOKE UPDATE, DELETE, TRUNCATE ON ?? FROM ??', [name, spec.role]);
      });
      await tx.raw('GRANT USAGE ON SCHEMA public TO ??', [spec.role]);
      for (const [table, columns] of Object.entries(PLATFORM_READS))
        await tx.raw(`GRANT SELECT (${columns.map(() => '??').join(', ')}) ON ?? TO ??`, [
          ...columns,
          table,
          spec.role,
        ]);
      if (spec.platformWriter)
        for (const table of PLATFORM_WRITER_TABLES)
          await tx.raw('GRANT SELECT, INSERT, UPDATE ON ?? TO ??', [table, spec.role]);
      for (const [table, columns] of Object.entries(PLATFORM_WRITES))
        await tx.raw(`GRANT UPDATE (${columns.map(() => '??').join(', ')}) ON ?? TO ??`, [
          ...columns,
          table,
          spec.role,
        ]);
    }),
  );
}

const quoteLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

async function withDb(url: string, work: (db: Knex) => Promise<void>): Promise<void> {
  const db = createDb({ url, poolMax: 1 });
  try {
    await work(db);
  } finally {
    await db.destroy();
  }
}
