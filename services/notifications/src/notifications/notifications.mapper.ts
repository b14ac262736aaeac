import { toIso } from '@platform/tenancy';
import type { NotificationType } from './notifications.model';
import type { NotificationRow } from './notifications.repository';

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
