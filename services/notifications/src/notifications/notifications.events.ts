import type { Knex } from 'knex';
import { tenantBindings, tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

/** What changed; `expired` is sent to clients as `deleted`. */
export type ChangeKind = 'notification' | 'read' | 'read_all' | 'deleted' | 'expired';

export interface NewChange {
  kind: ChangeKind;
  /** Whose view changed; null: every user of the project (a broadcast). */
  userId: string | null;
  notificationId: string | null;
  /** What the stream sends as the event's data. */
  payload: object;
}

export interface ChangeRow {
  seq: number;
  kind: ChangeKind;
  user_id: string | null;
  payload: object;
  /** False for a notification that was deleted or expired since: it is never delivered. */
  visible: boolean;
}

/** What a call answers, with the changes it made: the live streams are told them once committed. */
export interface Changed<T> {
  result: T;
  changes: ChangeRow[];
}

/**
 * Appends changes to the project's log; call it last in the transaction that made them. The
 * counter row stays locked until commit, so sequence numbers follow the commit order. Returns
 * them as the streams are told them once the transaction commits, so that they need not read
 * them back.
 */
export async function recordChanges(trx: Knex.Transaction, tenant: Tenant, changes: NewChange[]): Promise<ChangeRow[]> {
  if (!changes.length) return [];
  const { rows } = await trx.raw<{ rows: { last_seq: string }[] }>(
    `insert into notification_feeds as f (tenant_id, project_id, last_seq) values (:tenantId, :projectId, :n)
     on conflict (tenant_id, project_id) do update set last_seq = f.last_seq + :n
     returning last_seq`,
    { ...tenantBindings(tenant), n: changes.length },
  );
  const last = Number(rows[0].last_seq);
  const seqOf = (i: number) => last - changes.length + 1 + i;
  await tenantTable(trx, tenant, 'notification_events').insert(
    changes.map((change, i) => ({
      ...tenantColumns(tenant),
      seq: seqOf(i),
      kind: change.kind,
      user_id: change.userId,
      notification_id: change.notificationId,
      payload: change.payload,
    })),
  );
  return changes.map((change, i) => ({
    seq: seqOf(i),
    kind: change.kind,
    user_id: change.userId,
    payload: change.payload,
    visible: true,
  }));
}

/** The project's newest sequence number (0 before its first change). */
export async function currentSeq(db: Knex, tenant: Tenant): Promise<number> {
  const row = await tenantTable<{ last_seq: string }>(db, tenant, 'notification_feeds').first('last_seq');
  return row ? Number(row.last_seq) : 0;
}

/** The oldest change still kept (the replay window's start), or undefined when none is. */
export async function oldestSeq(db: Knex, tenant: Tenant): Promise<number | undefined> {
  const row = await tenantTable(db, tenant, 'notification_events').min('seq as seq').first();
  return row?.seq == null ? undefined : Number(row.seq);
}

export interface ChangeFilter {
  after: number;
  upTo?: number;
  /** One user's view (their changes and the broadcasts); all users' when absent. */
  userId?: string;
  limit: number;
}

/** Changes after a sequence number, oldest first. */
export async function listChanges(db: Knex, tenant: Tenant, filter: ChangeFilter): Promise<ChangeRow[]> {
  const upTo = filter.upTo === undefined ? '' : ' and e.seq <= :upTo';
  const user = filter.userId === undefined ? '' : ' and (e.user_id = :userId or e.user_id is null)';
  const { rows } = await db.raw<{ rows: (ChangeRow & { seq: string })[] }>(
    `select e.seq, e.kind, e.user_id, e.payload,
            (e.kind <> 'notification' or (n.deleted_at is null and n.expires_at > now())) as visible
     from notification_events e left join notifications n on n.id = e.notification_id
     where e.tenant_id = :tenantId and e.project_id = :projectId and e.seq > :after${upTo}${user}
     order by e.seq limit :limit`,
    {
      ...tenantBindings(tenant),
      after: filter.after,
      limit: filter.limit,
      ...(filter.upTo === undefined ? {} : { upTo: filter.upTo }),
      ...(filter.userId === undefined ? {} : { userId: filter.userId }),
    },
  );
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}
