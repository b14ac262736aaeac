import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import {
  envelopeOf,
  PLATFORM_EVENTS,
  type ErasingService,
  type EventBus,
  type EventEnvelope,
  type ProjectErasedData,
  type ProjectErasureRequestedData,
} from '@platform/events';
import { waitFor } from './wait-for';

/** Tables every service has that belong to no project (events, migrations). */
const PLATFORM_TABLES = ['outbox', 'processed_events', 'knex_migrations', 'knex_migrations_lock'];

export interface TableOwnership {
  /** Tables with `tenant_id` and `project_id`. */
  owned: string[];
  /** The other tables of the service, each with the owned tables its rows go with (`on delete cascade`). */
  unowned: { table: string; cascadesFrom: string[] }[];
}

/** Which tables of a service's database belong to a project, and how the others are tied to them. */
export async function tableOwnership(db: Knex): Promise<TableOwnership> {
  const { rows: tables } = await db.raw<{ rows: { table_name: string; owner_columns: number }[] }>(
    `select c.table_name, count(*) filter (where c.column_name in ('tenant_id', 'project_id'))::int as owner_columns
       from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      group by c.table_name order by c.table_name`,
  );
  const { rows: cascades } = await db.raw<{ rows: { child: string; parent: string }[] }>(
    `select conrelid::regclass::text as child, confrelid::regclass::text as parent
       from pg_constraint where contype = 'f' and confdeltype = 'c' and connamespace = 'public'::regnamespace`,
  );
  const owned = tables.filter((t) => t.owner_columns === 2).map((t) => t.table_name);
  const unowned = tables
    .filter((t) => t.owner_columns !== 2 && !PLATFORM_TABLES.includes(t.table_name))
    .map(({ table_name: table }) => ({
      table,
      cascadesFrom: cascades.filter((c) => c.child === table && owned.includes(c.parent)).map((c) => c.parent),
    }));
  return { owned, unowned };
}

/** The owner's rows in every table of the service's database that has the owner columns, by table. */
export async function projectRows(db: Knex, owner: Tenant): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of (await tableOwnership(db)).owned) {
    const row = await db(table)
      .where({ tenant_id: owner.tenantId, project_id: owner.projectId })
      .count<{ count: string }>('* as count')
      .first();
    counts[table] = Number(row?.count ?? 0);
  }
  return counts;
}

/** The owner's events in the service's outbox (sent or waiting), but for erasure confirmations. */
export async function projectOutboxRows(db: Knex, owner: Tenant): Promise<number> {
  const row = await db('outbox')
    .whereRaw(`envelope->>'tenantId' = ? and envelope->>'projectId' = ?`, [owner.tenantId, owner.projectId])
    .whereNot('type', PLATFORM_EVENTS.projectErased)
    .count<{ count: string }>('* as count')
    .first();
  return Number(row?.count ?? 0);
}

/** What the console does and sees: erasure requests on the bus, and each service's confirmations. */
export interface ErasureConsole {
  /** Publishes a request (or the given one again) for the owner's project. */
  request(
    owner: Tenant,
    again?: EventEnvelope<ProjectErasureRequestedData>,
  ): Promise<EventEnvelope<ProjectErasureRequestedData>>;
  /** The service's confirmation for the owner's project, once it has arrived. */
  confirmation(owner: Tenant, service: ErasingService): Promise<EventEnvelope<ProjectErasedData>>;
  /** Every confirmation received so far. */
  confirmations: EventEnvelope<ProjectErasedData>[];
}

/** Subscribes to the confirmations on `bus` (a queue of its own) and publishes requests there. */
export async function erasureConsole(bus: EventBus): Promise<ErasureConsole> {
  const confirmations: EventEnvelope<ProjectErasedData>[] = [];
  await bus.subscribe({
    queue: `test.erasure-console.${randomUUID()}`,
    topics: [PLATFORM_EVENTS.projectErased],
    handler: async (event) => void confirmations.push(event as EventEnvelope<ProjectErasedData>),
  });
  return {
    confirmations,
    async request(owner, again) {
      const event =
        again ??
        envelopeOf<ProjectErasureRequestedData>({
          type: PLATFORM_EVENTS.projectErasureRequested,
          tenantId: owner.tenantId,
          projectId: owner.projectId,
          data: { tenantId: owner.tenantId, projectId: owner.projectId, requestedAt: new Date().toISOString() },
        });
      await bus.publish(event);
      return event;
    },
    confirmation: (owner, service) =>
      waitFor(
        () =>
          confirmations.find(
            (c) =>
              c.data.projectId === owner.projectId && c.data.tenantId === owner.tenantId && c.data.service === service,
          ),
        { timeoutMs: 20_000 },
      ),
  };
}
