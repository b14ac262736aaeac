import type { Page } from '@platform/tenancy';

/** The domain's own types: what the schemas parse into and what the repository takes. */
export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error', 'custom'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** A notification to create, as the service hands it to the repository. */
export interface NewNotification {
  userId: string | null;
  title: string;
  message: string;
  type: NotificationType;
  data: Record<string, unknown>;
  expiresAt?: Date | null;
}

/** Which notifications a list shows, and which page of them. */
export interface NotificationFilter extends Page {
  /** The user whose feed this is: their own notifications and the broadcasts. */
  userId?: string;
  read?: boolean;
  type?: NotificationType;
}
