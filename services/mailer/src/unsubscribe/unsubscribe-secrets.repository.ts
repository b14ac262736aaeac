import type { Knex } from 'knex';
import type { Tenant } from '../shared';

const TABLE = 'mail_unsubscribe_secrets';

/** The project's sealed unsubscribe secret, or undefined. */
export async function findSealedSecret(db: Knex, tenant: Tenant): Promise<string | undefined> {
  const row = await db(TABLE)
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId })
    .first<{ secret_enc: string } | undefined>('secret_enc');
  return row?.secret_enc;
}

/** Stores the project's first secret; a concurrent first one wins and is returned instead. */
export async function insertSealedSecret(db: Knex, tenant: Tenant, sealed: string): Promise<string> {
  await db(TABLE)
    .insert({ tenant_id: tenant.tenantId, project_id: tenant.projectId, secret_enc: sealed })
    .onConflict('project_id')
    .ignore();
  return (await findSealedSecret(db, tenant))!;
}
