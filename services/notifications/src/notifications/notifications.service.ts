import type { Knex } from 'knex';
import { errors, isUuid, toIso } from '@platform/tenancy';
import { recordChanges, type ChangeRow } from './notifications.events';
import * as repo from './notifications.repository';
import type { NotificationRow, Tenant } from './notifications.repository';
import type { CreateNotificationInput, ListNotificationsQuery, NotificationType } from './notifications.schemas';

/** The Notification resource as the API returns it (SPEC.md "Notification"). */
export interface Notification {
  id: string;
  userId: string | null;
  title: string;
  message: string;
  type: NotificationType;
  data: Record<string, unknown>;
  read: boolean;
  readAt: string | null;
  createdAt: string;
  expiresAt: string;
  deletedAt: string | null;
}

export interface NotificationList {
  notifications: Notification[];
  total: number;
  limit: number;
  offset: number;
}

export interface MarkAllReadResult {
  success: true;
  updated: number;
  count: number;
  message: string;
}

/** Rows become API objects here and nowhere else. */
export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    userId: row.user_id,
    title: row.title,
    message: row.message,
    type: row.type,
    data: row.data,
    read: row.read_at !== null,
    readAt: toIso(row.read_at),
    createdAt: toIso(row.created_at)!,
    expiresAt: toIso(row.expires_at)!,
    deletedAt: toIso(row.deleted_at),
  };
}

const notFound = () => errors.notFound('Notification');

export async function createNotification(
  db: Knex,
  tenant: Tenant,
  input: CreateNotificationInput,
  committed?: ChangeRow[],
): Promise<Notification> {
  return db.transaction(async (trx) => {
    const notification = toNotification(await repo.insertNotification(trx, tenant, input));
    await recordChanges(
      trx,
      tenant,
      [{ kind: 'notification', userId: notification.userId, notificationId: notification.id, payload: notification }],
      committed,
    );
    return notification;
  });
}

export async function listNotifications(
  db: Knex,
  tenant: Tenant,
  query: ListNotificationsQuery,
): Promise<NotificationList> {
  const { rows, total } = await repo.listNotifications(db, tenant, query);
  return { notifications: rows.map(toNotification), total, limit: query.limit, offset: query.offset };
}

/** Absent, deleted, expired, another project's, or another user's (for a viewer): all 404. */
export async function getNotification(db: Knex, tenant: Tenant, id: string, viewer?: string): Promise<Notification> {
  const row = isUuid(id) ? await repo.findNotification(db, tenant, id, viewer) : undefined;
  if (!row) throw notFound();
  return toNotification(row);
}

/**
 * With a viewer, a broadcast gets that user's receipt and nobody else's view changes; a
 * personal notification (or any notification without a viewer) is marked read itself.
 * Marking a read notification again keeps its first readAt.
 */
/** `committed` (here and below) receives the changes made, for the live streams once the transaction committed. */
export async function markRead(
  db: Knex,
  tenant: Tenant,
  id: string,
  viewer?: string,
  committed?: ChangeRow[],
): Promise<Notification> {
  if (!isUuid(id)) throw notFound();
  return db.transaction(async (trx) => {
    const current = await repo.findNotification(trx, tenant, id, viewer);
    if (!current) throw notFound();
    if (current.read_at !== null) return toNotification(current);
    const receipt = viewer !== undefined && current.user_id === null;
    const readAt = receipt
      ? await repo.insertReceipt(trx, tenant, id, viewer)
      : await repo.markRowRead(trx, tenant, id);
    // Nothing written: a concurrent request read or deleted it first, so report what is there now.
    if (!readAt) return getNotification(trx, tenant, id, viewer);
    // A receipt changes one user's view; the row's own read state changes its owner's (everyone's for a broadcast).
    const userId = receipt ? viewer : current.user_id;
    await recordChanges(trx, tenant, [{ kind: 'read', userId, notificationId: id, payload: { id } }], committed);
    return toNotification({ ...current, read_at: readAt });
  });
}

export async function markAllRead(
  db: Knex,
  tenant: Tenant,
  userId: string,
  committed?: ChangeRow[],
): Promise<MarkAllReadResult> {
  const updated = await db.transaction(async (trx) => {
    const changed = await repo.markAllRead(trx, tenant, userId);
    const change = { kind: 'read_all', userId, notificationId: null, payload: {} } as const;
    if (changed) await recordChanges(trx, tenant, [change], committed);
    return changed;
  });
  return { success: true, updated, count: updated, message: `${updated} notification(s) marked as read` };
}

export async function deleteNotification(db: Knex, tenant: Tenant, id: string, committed?: ChangeRow[]): Promise<void> {
  if (!isUuid(id)) throw notFound();
  await db.transaction(async (trx) => {
    const deleted = await repo.softDeleteNotification(trx, tenant, id);
    if (!deleted) throw notFound();
    const change = { kind: 'deleted', userId: deleted.userId, notificationId: id, payload: { id } } as const;
    await recordChanges(trx, tenant, [change], committed);
  });
}

/** How many notifications a user sees unread: their own and the broadcasts they have not read. */
export async function unreadCount(db: Knex, tenant: Tenant, userId: string): Promise<{ count: number }> {
  const { count } = repo.listQueries(db, tenant, { userId, read: false, limit: 1, offset: 0 });
  return { count: Number((await count).rows[0].total) };
}
