import type { Knex } from 'knex';
import { errors, isUuid, type Tenant } from '@platform/tenancy';
import { recordChanges, type Changed } from './notifications.events';
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
): Promise<Changed<Notification>> {
  return db.transaction(async (trx) => {
    const notification = toNotification(await repo.insertNotification(trx, tenant, input));
    const changes = await recordChanges(trx, tenant, [
      { kind: 'notification', userId: notification.userId, notificationId: notification.id, payload: notification },
    ]);
    return { result: notification, changes };
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
export async function markRead(db: Knex, tenant: Tenant, id: string, viewer?: string): Promise<Changed<Notification>> {
  if (!isUuid(id)) throw notFound();
  return db.transaction(async (trx) => {
    const current = await repo.findNotification(trx, tenant, id, viewer);
    if (!current) throw notFound();
    if (current.read_at !== null) return { result: toNotification(current), changes: [] };
    const receipt = viewer !== undefined && current.user_id === null;
    const readAt = receipt
      ? await repo.insertReceipt(trx, tenant, id, viewer)
      : await repo.markRowRead(trx, tenant, id);
    // Nothing written: a concurrent request read or deleted it first, so report what is there now.
    if (!readAt) return { result: await getNotification(trx, tenant, id, viewer), changes: [] };
    // A receipt changes one user's view; the row's own read state changes its owner's (everyone's for a broadcast).
    const userId = receipt ? viewer : current.user_id;
    const changes = await recordChanges(trx, tenant, [{ kind: 'read', userId, notificationId: id, payload: { id } }]);
    return { result: toNotification({ ...current, read_at: readAt }), changes };
  });
}

export async function markAllRead(db: Knex, tenant: Tenant, userId: string): Promise<Changed<MarkAllReadResult>> {
  const { updated, changes } = await db.transaction(async (trx) => {
    const changed = await repo.markAllRead(trx, tenant, userId);
    const change = { kind: 'read_all', userId, notificationId: null, payload: {} } as const;
    return { updated: changed, changes: changed ? await recordChanges(trx, tenant, [change]) : [] };
  });
  const result: MarkAllReadResult = {
    success: true,
    updated,
    count: updated,
    message: `${updated} notification(s) marked as read`,
  };
  return { result, changes };
}

export async function deleteNotification(db: Knex, tenant: Tenant, id: string): Promise<Changed<void>> {
  if (!isUuid(id)) throw notFound();
  return db.transaction(async (trx) => {
    const deleted = await repo.softDeleteNotification(trx, tenant, id);
    if (!deleted) throw notFound();
    const change = { kind: 'deleted', userId: deleted.userId, notificationId: id, payload: { id } } as const;
    return { result: undefined, changes: await recordChanges(trx, tenant, [change]) };
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
