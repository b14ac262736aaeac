import type { Knex } from 'knex';
import { errors, isUuid, type Tenant } from '@platform/tenancy';
import { recordChanges, type ChangeRow } from './notifications.events';
import {
  toNotification,
  type MarkAllReadResult,
  type Notification,
  type NotificationList,
} from './notifications.mapper';
import type { NewNotification, NotificationFilter } from './notifications.model';
import * as repo from './notifications.repository';

const notFound = () => errors.notFound('Notification');

export async function createNotification(
  db: Knex,
  tenant: Tenant,
  input: NewNotification,
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
  query: NotificationFilter,
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
  return { count: (await repo.unreadCounts(db, tenant, [userId])).get(userId) ?? 0 };
}

/** Unread counts of many users at once (the live streams' recount), read in the caller's snapshot. */
export function unreadCounts(db: Knex, tenant: Tenant, users: string[]): Promise<Map<string, number>> {
  return repo.unreadCounts(db, tenant, users);
}
