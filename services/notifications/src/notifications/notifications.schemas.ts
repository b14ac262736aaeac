import { Joi, pageSchema } from '@platform/tenancy';
import { NOTIFICATION_TYPES, type NewNotification, type NotificationFilter } from './notifications.model';

export { NOTIFICATION_TYPES };

export const LIMITS = { userId: 255, title: 255, message: 10_000 } as const;
export const DEFAULT_PAGE_SIZE = 20;

const userId = Joi.string().min(1).max(LIMITS.userId);
// Required text must say something, but is stored exactly as sent (no trimming).
const text = (max: number) => Joi.string().min(1).max(max).pattern(/\S/, 'non-blank');

export type CreateNotificationInput = NewNotification;

// Far enough for any use, near enough that every layer (JS Date, Postgres, ISO 8601) agrees.
const LATEST_EXPIRY = new Date('9999-12-31T23:59:59.999Z');

export const createNotificationBody = Joi.object<CreateNotificationInput>({
  userId: userId.allow(null).default(null).description('Omitted or null: broadcast'),
  title: text(LIMITS.title).required(),
  message: text(LIMITS.message).required(),
  type: Joi.string()
    .valid(...NOTIFICATION_TYPES)
    .default('info'),
  // A free-form payload: its own keys are kept as sent (only our top-level fields are checked).
  data: Joi.object().unknown(true).default({}),
  // null or absent: the default, 30 days after creation. 'now' is taken at each validation.
  expiresAt: Joi.date()
    .iso()
    .greater('now')
    .max(LATEST_EXPIRY)
    .allow(null)
    .messages({ 'date.greater': 'expiresAt must be in the future' })
    .description('Must be in the future (else 400), at most 9999-12-31. Absent or null: 30 days after creation'),
})
  .description('Unknown fields are ignored.')
  .id('NotificationInput');

export type ListNotificationsQuery = NotificationFilter;

export const listNotificationsQuery = Joi.object<ListNotificationsQuery>({
  userId,
  read: Joi.boolean(),
  type: Joi.string().valid(...NOTIFICATION_TYPES),
  ...pageSchema(DEFAULT_PAGE_SIZE),
});

/** `?userId=` on a single notification: read it (or mark it read) as that user sees it. */
export interface ViewerQuery {
  userId?: string;
}

export const viewerQuery = Joi.object<ViewerQuery>({ userId });

export const markAllReadQuery = Joi.object<{ userId: string }>({ userId: userId.required() });

/** The end user's own list: the same filters and pagination, the user taken from the token. */
export const inboxListQuery = Joi.object<Omit<ListNotificationsQuery, 'userId'>>({
  read: Joi.boolean(),
  type: Joi.string().valid(...NOTIFICATION_TYPES),
  ...pageSchema(DEFAULT_PAGE_SIZE),
});

/** `?userId=` that a keyed route needs: whose count or stream. */
export const userQuery = Joi.object<{ userId: string }>({ userId: userId.required() });

/** The end user's stream takes its token from the query when the client cannot set headers. */
export const inboxStreamQuery = Joi.object<{ access_token?: string }>({ access_token: Joi.string().max(8_192) });

/** The id of the last event a reconnecting client saw (the Last-Event-ID header). */
export const lastEventIdHeader = Joi.string()
  .pattern(/^\d{1,15}$/)
  .messages({ 'string.pattern.base': 'Last-Event-ID must be the id of an event of this stream' });

/** A notification's id in the path; any text, so that a malformed id is a 404 like an unknown one. */
export const notificationIdParams = Joi.object<{ id: string }>({ id: Joi.string().required() });
