import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';
import {
  createProject,
  createProjectKey,
  findProjectByNames,
  findTenantProject,
  type SecretBox,
} from '@platform/directory';

/** The project the platform reserves for the console's own accounts, and the keys the console calls Authentication with. */
export interface ReservedKeys {
  tenantId: string;
  projectId: string;
  apiKey: string;
  secretKey: string;
}

interface StoredKeys {
  tenantId: string;
  projectId: string;
  apiKey: string;
  secretKeyEnc: string;
}

const STATE_KEY = 'reserved_project';
export const RESERVED_TENANT = 'platform-console';
export const RESERVED_PROJECT = 'console';

/**
 * Creates the reserved project on first need (like the demo project of `pnpm start`) and keeps
 * its keys, the secret encrypted, in the console's database. Replicas take turns on a lock, so
 * only one creates it.
 */
export class ReservedProject {
  private pending?: Promise<ReservedKeys>;

  constructor(
    private readonly db: Knex,
    private readonly platformDb: Knex,
    private readonly secrets: SecretBox,
  ) {}

  ensure(): Promise<ReservedKeys> {
    this.pending ??= this.load().catch((error: unknown) => {
      this.pending = undefined;
      throw error;
    });
    return this.pending;
  }

  private async load(): Promise<ReservedKeys> {
    return this.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', ['console-reserved-project']);
      const stored = await sharedTable<{ key: string; value: StoredKeys }>(trx, 'console_state')
        .where({ key: STATE_KEY })
        .first('value');
      if (stored && (await findTenantProject(this.platformDb, stored.value.tenantId, stored.value.projectId)))
        return this.open(stored.value);
      const keys = await this.createOrReuse();
      const value: StoredKeys = {
        tenantId: keys.tenantId,
        projectId: keys.projectId,
        apiKey: keys.apiKey,
        secretKeyEnc: this.secrets.encrypt(keys.secretKey),
      };
      await sharedTable(trx, 'console_state')
        .insert({ key: STATE_KEY, value: JSON.stringify(value) })
        .onConflict('key')
        .merge();
      return keys;
    });
  }

  /** A platform database that already has the project (a console database made afresh) gets a new key pair in it. */
  private async createOrReuse(): Promise<ReservedKeys> {
    const existing = await findProjectByNames(this.platformDb, RESERVED_TENANT, RESERVED_PROJECT);
    if (existing) {
      const key = await createProjectKey(this.platformDb, existing.projectId, { name: 'console', createdBy: null });
      return {
        tenantId: existing.tenantId,
        projectId: existing.projectId,
        apiKey: key.publicKey,
        secretKey: key.secretKey,
      };
    }
    const created = await createProject(this.platformDb, this.secrets, {
      tenant: RESERVED_TENANT,
      project: RESERVED_PROJECT,
    });
    return {
      tenantId: created.tenantId,
      projectId: created.projectId,
      apiKey: created.apiKey,
      secretKey: created.secretKey,
    };
  }

  private open(stored: StoredKeys): ReservedKeys {
    return {
      tenantId: stored.tenantId,
      projectId: stored.projectId,
      apiKey: stored.apiKey,
      secretKey: this.secrets.decrypt(stored.secretKeyEnc),
    };
  }
}
