import type { Knex } from 'knex';
import { tenantBindings, tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { NewNotification, NotificationFilter, NotificationType } from './notifications.model';

export interface NotificationRow {
  id: string;
  user_id: string | null;
  title: string;
  message: string;
  type: NotificationType;
  data: Record<string, unknown>;
  /** As seen by the viewer when one was given: a broadcast counts as read once they read it. */
  read_at: Date | null;
  created_at: Date;
  expires_at: Date;
  deleted_at: Date | null;
}

const NOTIFICATIONS = 'notifications as n';
const COLUMNS = [
  'n.id',
  'n.user_id',
  'n.title',
  'n.message',
  'n.type',
  'n.data',
  'n.created_at',
  'n.expires_at',
  'n.deleted_at',
];
const DEFAULT_EXPIRY = "interval '30 days'";

// Rows that queries may see: not soft-deleted and not expired. The one definition, used by
// the SQL of the lists below (with the owner) and, through liveNotifications(), by the builder.
const LIVE = 'n.deleted_at is null and n.expires_at > now()';
const VISIBLE = `n.tenant_id = :tenantId and n.project_id = :projectId and ${LIVE}`;
/** The viewer's receipt for a broadcast; personal notifications never have one. */
const RECEIPT = 'select 1 from notification_receipts r where r.notification_id = n.id and r.user_id = :userId';

/** The tenant's notifications that are neither deleted nor expired (tenantTable does the scoping). */
function liveNotifications(db: Knex, tenant: Tenant) {
  return tenantTable<NotificationRow>(db, tenant, NOTIFICATIONS).whereRaw(LIVE);
}

// The list statements are written out in SQL: they are the hot path, and building them with
// the query builder on every request cost more CPU than running them. Only constant fragments
// are joined; every value is a named binding.
const LIST_COLUMNS = COLUMNS.join(', ');
const NEWEST_FIRST = 'order by n.created_at desc, n.id desc';
const ROW_READ = { true: ' and n.read_at is not null', false: ' and n.read_at is null' };
const BROADCAST_READ = {
  true: ` and (n.read_at is not null or exists (${RECEIPT}))`,
  false: ` and n.read_at is null and not exists (${RECEIPT})`,
};

interface ListSql {
  page: string;
  count: string;
}

/**
 * A user's feed is two index ranges, their own notifications and the broadcasts: each is
 * read newest first and cut at offset + limit, then merged, so a page costs O(offset + limit)
 * index entries however many rows the project holds. Without a user it is the whole project.
 * The page carries the total (an uncorrelated subquery, computed once), so a list is one
 * round trip; only a page past the end needs the separate count.
 */
function listSql(filter: Pick<NotificationFilter, 'userId' | 'read' | 'type'>): ListSql {
  const type = filter.type ? ' and n.type = :type' : '';
  const read = filter.read === undefined ? undefined : (String(filter.read) as 'true' | 'false');
  if (filter.userId === undefined) {
    const where = `${VISIBLE}${type}${read ? ROW_READ[read] : ''}`;
    const total = `(select count(*) from notifications n where ${where})`;
    return {
      page: `select ${LIST_COLUMNS}, n.read_at, ${total} as total from notifications n where ${where} ${NEWEST_FIRST} limit :limit offset :offset`,
      count: `select ${total} as total`,
    };
  }
  const own = `${VISIBLE} and n.user_id = :userId${type}${read ? ROW_READ[read] : ''}`;
  const broadcasts = `${VISIBLE} and n.user_id is null${type}${read ? BROADCAST_READ[read] : ''}`;
  const branch = (where: string) =>
    `(select ${LIST_COLUMNS}, n.read_at from notifications n where ${where} ${NEWEST_FIRST} limit :cut)`;
  const total = `(select count(*) from notifications n where ${own}) + (select count(*) from notifications n where ${broadcasts})`;
  return {
    page:
      `select ${LIST_COLUMNS}, least(r.read_at, n.read_at) as read_at, ${total} as total ` +
      `from (${branch(own)} union all ${branch(broadcasts)}) as n ` +
      'left join notification_receipts r on r.notification_id = n.id and r.user_id = :userId ' +
      `${NEWEST_FIRST} limit :limit offset :offset`,
    count: `select ${total} as total`,
  };
}

const listSqlCache = new Map<string, ListSql>();

/** The statements of a list: one page, newest first, with the total for the same filter; and that total alone. */
export function listQueries(db: Knex, tenant: Tenant, filter: NotificationFilter): { page: Knex.Raw; count: Knex.Raw } {
  const shape = `${filter.userId !== undefined}/${filter.read}/${filter.type !== undefined}`;
  let sql = listSqlCache.get(shape);
  if (!sql) listSqlCache.set(shape, (sql = listSql(filter)));
  const bindings: Record<string, string | number> = {
    ...tenantBindings(tenant),
    limit: filter.limit,
    offset: filter.offset,
    cut: filter.limit + filter.offset,
  };
  if (filter.userId !== undefined) bindings.userId = filter.userId;
  if (filter.type) bindings.type = filter.type;
  return { page: db.raw(sql.page, bindings), count: db.raw(sql.count, bindings) };
}

export async function listNotifications(
  db: Knex,
  tenant: Tenant,
  filter: NotificationFilter,
): Promise<{ rows: NotificationRow[]; total: number }> {
  const { page, count } = listQueries(db, tenant, filter);
  const rows = (await page).rows as (NotificationRow & { total: number })[];
  if (rows.length) return { rows, total: Number(rows[0].total) };
  if (filter.offset === 0) return { rows, total: 0 };
  return { rows, total: Number((await count).rows[0].total) };
}

export async function insertNotification(db: Knex, tenant: Tenant, input: NewNotification): Promise<NotificationRow> {
  const [row] = await tenantTable(db, tenant, NOTIFICATIONS)
    .insert({
      ...tenantColumns(tenant),
      user_id: input.userId,
      title: input.title,
      message: input.message,
      type: input.type,
      data: input.data,
      expires_at: input.expiresAt ?? db.raw(`now() + ${DEFAULT_EXPIRY}`),
    })
    .returning<NotificationRow[]>([...COLUMNS, 'n.read_at']);
  return row;
}

/** One visible notification; with a viewer, only if it is theirs or a broadcast, read as they see it. */
export async function findNotification(
  db: Knex,
  tenant: Tenant,
  id: string,
  viewer?: string,
): Promise<NotificationRow | undefined> {
  const qb = liveNotifications(db, tenant).andWhere('n.id', id);
  if (viewer === undefined) return qb.first(...COLUMNS, 'n.read_at');
  return qb
    .where((w) => w.where('n.user_id', viewer).orWhereNull('n.user_id'))
    .leftJoin('notification_receipts as r', (j) => j.on('r.notification_id', 'n.id').andOnVal('r.user_id', viewer))
    .first(...COLUMNS, db.raw('least(r.read_at, n.read_at) as read_at'));
}

/** Marks the notification itself read; returns its readAt, or undefined when it changed meanwhile. */
export async function markRowRead(db: Knex, tenant: Tenant, id: string): Promise<Date | undefined> {
  const [row] = await liveNotifications(db, tenant)
    .andWhere('n.id', id)
    .whereNull('n.read_at')
    .update({ read_at: db.fn.now() }, ['read_at']);
  return row?.read_at ?? undefined;
}

/** Records that one user read a broadcast; returns the receipt's time, or undefined if they had one already. */
export async function insertReceipt(db: Knex, tenant: Tenant, id: string, userId: string): Promise<Date | undefined> {
  const source = liveNotifications(db, tenant)
    .andWhere('n.id', id)
    .whereNull('n.user_id')
    .select('n.id', db.raw('?', [userId]), db.fn.now());
  const result = await db.raw<{ rows: { read_at: Date }[] }>(
    'insert into notification_receipts (notification_id, user_id, read_at) ? on conflict do nothing returning read_at',
    [source],
  );
  return result.rows[0]?.read_at;
}

/**
 * The two statements of mark-all-read: the user's own unread rows are marked read, and each
 * broadcast still unread for them gets a receipt (nobody else's view changes).
 */
export function markAllReadQueries(
  db: Knex,
  tenant: Tenant,
  userId: string,
): { own: Knex.QueryBuilder; broadcasts: Knex.Raw } {
  const own = liveNotifications(db, tenant)
    .andWhere('n.user_id', userId)
    .whereNull('n.read_at')
    .update({ read_at: db.fn.now() });
  const unread = liveNotifications(db, tenant)
    .whereNull('n.user_id')
    .whereNull('n.read_at')
    .whereRaw(`not exists (${RECEIPT})`, { userId });
  const broadcasts = db.raw(
    'insert into notification_receipts (notification_id, user_id, read_at) ? on conflict do nothing',
    [unread.select('n.id', db.raw('?', [userId]), db.fn.now())],
  );
  return { own, broadcasts };
}

/** Marks every unread notification a user sees as read for that user; returns how many changed. */
export async function markAllRead(trx: Knex.Transaction, tenant: Tenant, userId: string): Promise<number> {
  const { own, broadcasts } = markAllReadQueries(trx, tenant, userId);
  const ownChanged = (await own) as unknown as number;
  const inserted = (await broadcasts) as { rowCount: number | null };
  return ownChanged + (inserted.rowCount ?? 0);
}

/** Soft delete: the row stays (until the purge) but no query sees it again. */
export async function softDeleteNotification(
  db: Knex,
  tenant: Tenant,
  id: string,
): Promise<{ userId: string | null } | undefined> {
  const [row] = await liveNotifications(db, tenant)
    .andWhere('n.id', id)
    .update({ deleted_at: db.fn.now() }, ['user_id']);
  return row ? { userId: row.user_id } : undefined;
}

/**
 * The one definition of a user's unread count, for one user or many at once: their own unread
 * rows, plus the unread broadcasts less those they hold a receipt for. One statement however
 * many users, so the counts come from one snapshot.
 */
export async function unreadCounts(db: Knex, tenant: Tenant, users: string[]): Promise<Map<string, number>> {
  const unreadBroadcast = `${VISIBLE} and n.user_id is null and n.read_at is null`;
  const { rows } = await db.raw<{ rows: { user_id: string; count: string }[] }>(
    `with own as (
       select n.user_id, count(*) as count from notifications n
        where ${VISIBLE} and n.user_id = any(:users) and n.read_at is null group by n.user_id),
     receipts as (
       select r.user_id, count(*) as count
         from notification_receipts r join notifications n on n.id = r.notification_id
        where ${unreadBroadcast} and r.user_id = any(:users) group by r.user_id),
     broadcasts as (select count(*) as count from notifications n where ${unreadBroadcast})
     select u.user_id, coalesce(own.count, 0) + broadcasts.count - coalesce(receipts.count, 0) as count
       from unnest(:users::varchar[]) as u(user_id) cross join broadcasts
       left join own on own.user_id = u.user_id left join receipts on receipts.user_id = u.user_id`,
    { ...tenantBindings(tenant), users },
  );
  return new Map(rows.map((row) => [row.user_id, Number(row.count)]));
}
