import { Joi } from '@platform/tenancy';
import { LIMITS, NOTIFICATION_TYPES } from './notifications.schemas';
import type { MarkAllReadResult, Notification, NotificationList } from './notifications.mapper';

const timestamp = () => Joi.string().meta({ format: 'date-time' });
const count = () => Joi.number().integer().min(0);

/** Typed by the mapper's views, so a key the view lacks does not compile. */
export const notificationResponse = Joi.object<Notification>({
  id: Joi.string().guid().required(),
  userId: Joi.string()
    .max(LIMITS.userId)
    .allow(null)
    .description('null: a broadcast to every user of the project')
    .required(),
  title: Joi.string().min(1).max(LIMITS.title).required(),
  message: Joi.string().min(1).max(LIMITS.message).required(),
  type: Joi.string()
    .valid(...NOTIFICATION_TYPES)
    .required(),
  data: Joi.object().unknown().description('Custom payload, returned as sent').required(),
  read: Joi.boolean()
    .description(
      "With ?userId= on a broadcast: true once that user read it (or it was marked read without userId). Otherwise the notification's own read state.",
    )
    .required(),
  readAt: timestamp()
    .allow(null)
    .description('When it was (first) marked read, as seen by the same rule as `read`')
    .required(),
  createdAt: timestamp().required(),
  expiresAt: timestamp()
    .description('Default 30 days after creation; an expired notification is hidden and 404')
    .required(),
  deletedAt: timestamp()
    .allow(null)
    .description('Always null in responses: soft-deleted notifications are hidden')
    .required(),
}).id('Notification');

export const notificationListResponse = Joi.object<NotificationList>({
  notifications: Joi.array().items(notificationResponse).required(),
  total: count().description('All notifications matching the same filter').required(),
  limit: Joi.number().integer().min(1).max(100).required(),
  offset: count().required(),
}).id('NotificationList');

export const markAllReadResponse = Joi.object<MarkAllReadResult>({
  success: Joi.valid(true).required(),
  updated: count().description('Notifications that changed from unread to read for that user').required(),
  count: count().description('Same as updated').required(),
  message: Joi.string().required(),
}).id('MarkAllReadResult');

export const unreadCountResponse = Joi.object<{ count: number }>({
  count: count()
    .description(
      "The user's own unread notifications plus the broadcasts they have not read (expired and deleted left out)",
    )
    .required(),
}).id('UnreadCount');
