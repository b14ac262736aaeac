import type { Knex } from 'knex';
import { tenantOfRow, tryTransactionLock } from '@platform/db';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Logger } from '@platform/http';
import type { Tenant } from '@platform/tenancy';
import type { LiveConfig } from '../config';
import { recordChanges, type ChangeRow } from '../notifications/notifications.events';

/** Name of the advisory lock that lets one replica at a time announce expiries. */
export const EXPIRY_LOCK = 'notifications.expiry';
const BATCH = 1_000;

interface ExpiredRow {
  id: string;
  tenant_id: string;
  project_id: string;
  user_id: string | null;
}

/**
 * Writes an `expired` change for each notification that expired (within the replay window)
 * and has none yet, so that streams drop it and count again. Across all tenants, one replica
 * at a time. Returns the projects whose logs grew.
 */
export async function announceExpiries(
  db: Knex,
  windowHours: number,
): Promise<{ tenant: Tenant; changes: ChangeRow[] }[]> {
  return db.transaction(async (trx) => {
    if (!(await tryTransactionLock(trx, EXPIRY_LOCK))) return [];
    const { rows } = await trx.raw<{ rows: ExpiredRow[] }>(
      `select n.id, n.tenant_id, n.project_id, n.user_id from notifications n
       where n.expires_at <= now() and n.expires_at > now() - make_interval(hours => :windowHours)
         and n.deleted_at is null
         and not exists (select 1 from notification_events e where e.notification_id = n.id and e.kind = 'expired')
       order by n.expires_at limit :limit`,
      { windowHours, limit: BATCH },
    );
    const byProject = new Map<string, ExpiredRow[]>();
    for (const row of rows) {
      const key = `${row.tenant_id}/${row.project_id}`;
      const group = byProject.get(key);
      if (group) group.push(row);
      else byProject.set(key, [row]);
    }
    const announced: { tenant: Tenant; changes: ChangeRow[] }[] = [];
    for (const expired of byProject.values()) {
      const tenant = tenantOfRow(expired[0]);
      const changes = await recordChanges(
        trx,
        tenant,
        expired.map((row) => ({
          kind: 'expired',
          userId: row.user_id,
          notificationId: row.id,
          payload: { id: row.id },
        })),
      );
      announced.push({ tenant, changes });
    }
    return announced;
  });
}

export function startExpirySweep(
  db: Knex,
  logger: Logger,
  config: LiveConfig,
  announce: (tenant: Tenant, changes: ChangeRow[]) => void,
): StopFunction {
  return startRecurringJob({
    name: 'notifications expiry sweep',
    intervalMs: config.expirySweepMs,
    firstRunMs: config.expirySweepMs,
    logger,
    run: async () => {
      for (const { tenant, changes } of await announceExpiries(db, config.replayWindowHours)) announce(tenant, changes);
    },
  });
}
