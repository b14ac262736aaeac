import type { Knex } from 'knex';
import { PLATFORM_EVENTS, withOutbox, type ProjectErasureRequestedData } from '@platform/events';
import { toErasure, type Erasure } from './erasure.mapper';
import * as repo from './erasure.repository';

/** Asks the six services to erase the project: recorded, and announced through the outbox once committed. */
export async function requestErasure(
  db: Knex,
  relay: { kick(): void },
  tenantId: string,
  projectId: string,
): Promise<Erasure | null> {
  await withOutbox(db, relay, async (trx, outbox) => {
    await repo.insertErasure(trx, tenantId, projectId);
    const data: ProjectErasureRequestedData = { tenantId, projectId, requestedAt: new Date().toISOString() };
    await outbox.write({ type: PLATFORM_EVENTS.projectErasureRequested, tenantId, projectId, data });
  });
  return erasureOf(db, tenantId, projectId);
}

/** The erasure's progress per service; null when none was asked for. */
export async function erasureOf(db: Knex, tenantId: string, projectId: string): Promise<Erasure | null> {
  const erasure = await repo.findErasure(db, tenantId, projectId);
  return erasure ? toErasure(erasure, await repo.confirmationsOf(db, projectId)) : null;
}
