import type { Knex } from 'knex';
import { tenantBindings, sharedTable, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

/** Leases of per-project concurrency slots; `holder` is one worker process's limiter. */

export interface HeldSlot {
  tenant: Tenant;
  slot: number;
}

/** A lease of `batch_concurrency_slots`, as a renewal returns it. */
export interface SlotRow {
  tenant_id: string;
  project_id: string;
  slot: number;
}

/**
 * Takes up to `count` of the project's slots 0..limit-1 that nobody holds (or whose lease ran
 * out), leaving out the holder's own. Random order, so two workers asking together collide
 * rarely; a slot taken meanwhile by another is simply not returned.
 */
export async function leaseSlots(
  db: Knex,
  tenant: Tenant,
  holder: string,
  options: { limit: number; count: number; leaseMs: number; own: number[] },
): Promise<number[]> {
  const result = await db.raw<{ rows: Pick<SlotRow, 'slot'>[] }>(
    `insert into batch_concurrency_slots as s (tenant_id, project_id, slot, holder, expires_at)
     select cast(:tenantId as uuid), cast(:projectId as uuid), n, cast(:holder as uuid), now() + make_interval(secs => :leaseSeconds)
       from generate_series(0, :limit - 1) as n
      where n <> all(cast(:own as int[]))
        and not exists (select 1 from batch_concurrency_slots h
                         where h.tenant_id = :tenantId and h.project_id = :projectId and h.slot = n and h.expires_at > now())
      order by random()
      limit :count
     on conflict (tenant_id, project_id, slot) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where s.expires_at <= now()
     returning slot`,
    {
      ...tenantBindings(tenant),
      holder,
      leaseSeconds: options.leaseMs / 1000,
      limit: options.limit,
      count: options.count,
      own: options.own,
    },
  );
  return result.rows.map((row) => row.slot);
}

/** Extends the holder's leases on `slots`; returns those still its own (a lease that ran out may have been taken). */
export async function renewSlots(db: Knex, holder: string, slots: HeldSlot[], leaseMs: number): Promise<SlotRow[]> {
  if (!slots.length) return [];
  const result = await db.raw<{ rows: SlotRow[] }>(
    `update batch_concurrency_slots s set expires_at = now() + make_interval(secs => :leaseSeconds)
       from unnest(cast(:tenants as uuid[]), cast(:projects as uuid[]), cast(:slots as int[])) as h(tenant_id, project_id, slot)
      where s.holder = :holder and s.tenant_id = h.tenant_id and s.project_id = h.project_id and s.slot = h.slot
      returning s.tenant_id, s.project_id, s.slot`,
    {
      leaseSeconds: leaseMs / 1000,
      holder,
      tenants: slots.map((s) => s.tenant.tenantId),
      projects: slots.map((s) => s.tenant.projectId),
      slots: slots.map((s) => s.slot),
    },
  );
  return result.rows;
}

export async function releaseSlots(db: Knex, tenant: Tenant, holder: string, slots: number[]): Promise<void> {
  if (!slots.length) return;
  await tenantTable(db, tenant, 'batch_concurrency_slots').where({ holder }).whereIn('slot', slots).delete();
}

/** Everything the holder has (a worker stopping cleanly). */
export async function releaseAllSlots(db: Knex, holder: string): Promise<void> {
  // Every project's slots of this holder (one worker process).
  await sharedTable(db, 'batch_concurrency_slots').where({ holder }).delete();
}
