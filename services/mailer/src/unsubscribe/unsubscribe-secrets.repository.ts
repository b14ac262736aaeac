import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

const TABLE = 'mail_unsubscribe_secrets';

/** The project's sealed unsubscribe secret, or undefined. */
export async function findSealedSecret(db: Knex, tenant: Tenant): Promise<string | undefined> {
  const row = await tenantTable(db, tenant, TABLE).first<{ secret_enc: string } | undefined>('secret_enc');
  return row?.secret_enc;
}

/** Stores the project's first secret; a concurrent first one wins and is returned instead. */
export async function insertSealedSecret(db: Knex, tenant: Tenant, sealed: string): Promise<string> {
  await tenantTable(db, tenant, TABLE)
    .insert({ ...tenantColumns(tenant), secret_enc: sealed })
    .onConflict('project_id')
    .ignore();
  return (await findSealedSecret(db, tenant))!;
}
