import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';

export interface ErasureRow {
  project_id: string;
  tenant_id: string;
  requested_at: Date;
}

export interface ConfirmationRow {
  service: string;
  erased_at: Date;
}

export async function insertErasure(db: Knex, tenantId: string, projectId: string): Promise<void> {
  await sharedTable(db, 'project_erasures')
    .insert({ tenant_id: tenantId, project_id: projectId })
    .onConflict('project_id')
    .ignore();
}

export async function findErasure(db: Knex, tenantId: string, projectId: string): Promise<ErasureRow | undefined> {
  return sharedTable<ErasureRow>(db, 'project_erasures')
    .where({ tenant_id: tenantId, project_id: projectId })
    .first('project_id', 'tenant_id', 'requested_at');
}

/** Confirmations of one project's erasure, joined by the erasure's project id (owned through it). */
export async function confirmationsOf(db: Knex, projectId: string): Promise<ConfirmationRow[]> {
  return sharedTable<ConfirmationRow & { project_id: string }>(db, 'project_erasure_confirmations')
    .where({ project_id: projectId })
    .select('service', 'erased_at');
}

export async function insertConfirmation(db: Knex, projectId: string, service: string, erasedAt: Date): Promise<void> {
  await sharedTable(db, 'project_erasure_confirmations')
    .insert({ project_id: projectId, service, erased_at: erasedAt })
    .onConflict(['project_id', 'service'])
    .ignore();
}
