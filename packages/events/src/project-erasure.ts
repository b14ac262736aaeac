import type { Knex } from 'knex';
import type { Logger } from '@platform/http';
import { isUuid } from '@platform/tenancy';
import type { EventBus, EventHandler } from './bus';
import {
  PLATFORM_EVENTS,
  type ErasingService,
  type ProjectErasedData,
  type ProjectErasureRequestedData,
} from './contracts';
import type { EventEnvelope } from './envelope';
import { withOutbox } from './with-outbox';

export interface ProjectErasureOptions {
  service: ErasingService;
  /**
   * Every table of the service's database with `tenant_id` and `project_id`, in the order they
   * are emptied: a table whose foreign key to another does not cascade comes before it. Rows of
   * tables without the owner columns go with their parent through `on delete cascade`.
   */
  tables: readonly string[];
  /** Rows deleted per statement (each its own short transaction). */
  batchSize?: number;
}

export interface ProjectErasureDeps {
  db: Knex;
  bus: EventBus;
  relay: { kick(): void };
  logger: Logger;
}

const DEFAULT_BATCH_SIZE = 1_000;

/** The durable queue of a service's erasure consumer, and its name in `processed_events`. */
export const projectErasureQueue = (service: ErasingService) => `${service}.project-erasure`;

/**
 * Erases one project's rows from a service's database on `platform.project.erasure-requested`,
 * then confirms with `platform.project.erased` through the outbox. The rows go in batches of
 * short transactions (a large project never holds one long transaction or lock); the event id
 * is recorded with the confirmation, so a redelivery after it is ignored and a handler that
 * stopped half-way simply runs again (deleting what is gone already costs nothing).
 */
export function projectErasureHandler(deps: ProjectErasureDeps, options: ProjectErasureOptions): EventHandler {
  const consumer = projectErasureQueue(options.service);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  return async (envelope) => {
    const event = envelope as EventEnvelope<Partial<ProjectErasureRequestedData>>;
    const tenantId = event.data?.tenantId ?? '';
    const projectId = event.data?.projectId ?? '';
    if (!isUuid(tenantId) || !isUuid(projectId)) {
      // Acknowledged: no retry would make it valid, and a bad id must never widen the delete.
      deps.logger.error('project erasure event without a valid project, ignored', { eventId: event.id });
      return;
    }
    if (await alreadyErased(deps.db, consumer, event.id)) return;
    let removed = 0;
    for (const table of options.tables) {
      removed += await deleteInBatches(deps.db, batchSize, (trx) =>
        trx.raw(
          'delete from ?? where ctid = any(array(select ctid from ?? where tenant_id = ? and project_id = ? limit ?))',
          [table, table, tenantId, projectId, batchSize],
        ),
      );
    }
    // Events of the project still in the outbox (sent or waiting) carry its data too.
    removed += await deleteInBatches(deps.db, batchSize, (trx) =>
      trx.raw(
        `delete from outbox where id = any(array(select id from outbox
           where envelope->>'tenantId' = ? and envelope->>'projectId' = ? limit ?))`,
        [tenantId, projectId, batchSize],
      ),
    );
    await withOutbox(deps.db, deps.relay, async (trx, outbox) => {
      const recorded = await trx('processed_events')
        .insert({ consumer, event_id: event.id })
        .onConflict(['consumer', 'event_id'])
        .ignore()
        .returning('event_id');
      if (recorded.length === 0) return;
      await outbox.write<ProjectErasedData>({
        type: PLATFORM_EVENTS.projectErased,
        tenantId,
        projectId,
        data: { tenantId, projectId, service: options.service, erasedAt: new Date().toISOString() },
      });
    });
    deps.logger.info('project erased', { service: options.service, tenantId, projectId, rows: removed });
  };
}

/**
 * Subscribes the service's durable erasure queue: requests published while the service was
 * down wait there and are erased when it starts. The function returned stops taking new ones.
 */
export async function startProjectErasure(
  deps: ProjectErasureDeps,
  options: ProjectErasureOptions,
): Promise<() => Promise<void>> {
  const handle = projectErasureHandler(deps, options);
  let stopped = false;
  await deps.bus.subscribe({
    queue: projectErasureQueue(options.service),
    topics: [PLATFORM_EVENTS.projectErasureRequested],
    prefetch: 1,
    // An erasure must not end in the dead-letter queue while the database is only away a while.
    maxAttempts: 20,
    retryDelaysMs: [1_000, 5_000, 30_000, 120_000],
    handler: async (event) => {
      // A stopped consumer hands the message back rather than acknowledging it unhandled.
      if (stopped) throw new Error('project erasure is stopping');
      await handle(event);
    },
  });
  return async () => {
    stopped = true;
  };
}

async function alreadyErased(db: Knex, consumer: string, eventId: string): Promise<boolean> {
  return Boolean(await db('processed_events').where({ consumer, event_id: eventId }).first('event_id'));
}

async function deleteInBatches(
  db: Knex,
  batchSize: number,
  deleteBatch: (trx: Knex.Transaction) => Promise<{ rowCount: number | null }>,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rowCount } = await db.transaction(deleteBatch);
    removed += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) return removed;
  }
}
