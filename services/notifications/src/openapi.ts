/** The Notifications service's contract: every operation, its request schemas (the routes' own) and responses. */
import {
  buildContractDocument,
  json,
  type OperationDefinition,
  type ResponseDefinition,
  BEARER,
  KEYS,
} from '@platform/contract';
import { Joi } from '@platform/tenancy';
import {
  markAllReadResponse,
  notificationListResponse,
  notificationResponse,
  unreadCountResponse,
} from './notifications/notifications.responses';
import {
  createNotificationBody,
  inboxListQuery,
  inboxStreamQuery,
  lastEventIdHeader,
  listNotificationsQuery,
  markAllReadQuery,
  notificationIdParams,
  userQuery,
  viewerQuery,
} from './notifications/notifications.schemas';

/** The handler's own query schema, with a description per key for this operation. */
function describedKeys(schema: Joi.ObjectSchema, descriptions: Record<string, string>): Joi.ObjectSchema {
  return Object.entries(descriptions).reduce(
    (described, [key, text]) => described.fork(key, (field) => field.description(text)),
    schema,
  );
}

const idParams = describedKeys(notificationIdParams, { id: 'Notification id' });
const lastEventId = Joi.object({
  'Last-Event-ID': lastEventIdHeader.description(
    'Sent by EventSource when it reconnects: the stream first replays the changes after it (kept for ' +
      'NOTIFICATIONS_REPLAY_WINDOW_HOURS, default 24 h, at most NOTIFICATIONS_REPLAY_MAX_EVENTS, default 1000), ' +
      'in order and once each; when more were missed, or they are no longer kept, it sends `reset` instead.',
  ),
});

const STREAM_DESCRIPTION = [
  "Server-Sent Events of one user's notifications: their own and the project's broadcasts. Events:",
  '`notification` (data: the notification as the REST API returns it), `read` (`{id}`), `read_all` (`{}`),',
  '`deleted` (`{id}`; also when a notification expires), `unread_count` (`{count}`; on connect and after every',
  'change of that count), `reset` (`{}`: more was missed than can be replayed; reload the list).',
  "Every change has an `id:`, its number in the project's log; `unread_count` has one only when it moves the",
  "stream's position past changes that were not this user's (on connect, for one), so no two events of a stream",
  'share an id and Last-Event-ID resumes exactly. A comment line (`: ping`) every',
  'NOTIFICATIONS_STREAM_HEARTBEAT_MS (default 15 s) keeps proxies from closing the connection.',
  'Streams per project and per user on one process are limited (NOTIFICATIONS_STREAMS_PER_PROJECT,',
  'NOTIFICATIONS_STREAMS_PER_USER: 429 beyond); a client that does not read is disconnected once',
  'NOTIFICATIONS_STREAM_BUFFER_BYTES are queued for it.',
].join(' ');

const eventStream: ResponseDefinition = {
  description: 'The event stream; it stays open',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

const BEARER_NOTE =
  'Authorised by the access token Authentication issued (project and user come from it). A request with an ' +
  "Origin header passes only from an origin in the project's `allowedOrigins` setting (403 otherwise) and " +
  'gets `Access-Control-Allow-Origin`.';

const keyedOperations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/notifications',
    operationId: 'postNotifications',
    summary: 'Create a notification for one user, or a broadcast (userId omitted or null)',
    security: KEYS,
    request: { body: createNotificationBody },
    responses: { 201: json('The created notification (read false)', notificationResponse) },
    errors: [400, 401, 413],
  },
  {
    method: 'get',
    path: '/notifications',
    operationId: 'getNotifications',
    summary: 'List notifications, newest first; soft-deleted and expired ones are left out',
    security: KEYS,
    request: {
      query: describedKeys(listNotificationsQuery, {
        userId: "That user's own notifications plus broadcasts, with read state as that user sees it",
      }),
    },
    responses: { 200: json('One page and the total for the same filter', notificationListResponse) },
    errors: [400, 401],
  },
  {
    method: 'patch',
    path: '/notifications/mark-all-read',
    operationId: 'patchNotificationsMarkAllRead',
    summary: 'Mark every unread notification a user sees (their own and broadcasts) read for that user',
    description: "Broadcasts get a per-user receipt: other users' read state does not change.",
    security: KEYS,
    request: { query: describedKeys(markAllReadQuery, { userId: 'The user' }) },
    responses: { 200: json('How many notifications changed', markAllReadResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/notifications/{id}',
    operationId: 'getNotificationsById',
    summary: 'One notification',
    security: KEYS,
    request: {
      params: idParams,
      query: describedKeys(viewerQuery, { userId: "Read it as this user sees it; 404 when it is another user's" }),
    },
    responses: { 200: json('The notification', notificationResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'delete',
    path: '/notifications/{id}',
    operationId: 'deleteNotificationsById',
    summary: 'Soft delete: hidden from every query afterwards; deleting again is 404',
    security: KEYS,
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' } },
    errors: [401, 404],
  },
  {
    method: 'patch',
    path: '/notifications/{id}/read',
    operationId: 'patchNotificationsByIdRead',
    summary: 'Mark read (idempotent: the first readAt is kept)',
    description:
      "With userId on a broadcast, records that user's read only; without userId, marks the notification itself read.",
    security: KEYS,
    request: {
      params: idParams,
      query: describedKeys(viewerQuery, {
        userId: "Mark read for this user; 404 when it is another user's notification",
      }),
    },
    responses: { 200: json('The notification with read true and readAt', notificationResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/notifications/stream',
    operationId: 'getNotificationsStream',
    summary: "A user's notifications as they happen (Server-Sent Events), for backends",
    description: STREAM_DESCRIPTION,
    security: KEYS,
    request: { query: describedKeys(userQuery, { userId: 'The user' }), headers: lastEventId },
    responses: { 200: eventStream },
    errors: [400, 401, 429],
  },
  {
    method: 'get',
    path: '/notifications/unread-count',
    operationId: 'getNotificationsUnreadCount',
    summary: "A user's unread count",
    security: KEYS,
    request: { query: describedKeys(userQuery, { userId: 'The user' }) },
    responses: { 200: json('The count', unreadCountResponse) },
    errors: [400, 401],
  },
];

const endUserOperations: OperationDefinition[] = [
  {
    method: 'get',
    path: '/me/notifications',
    operationId: 'getMeNotifications',
    summary: "The end user's notifications (their own and the broadcasts), newest first",
    description: BEARER_NOTE,
    security: BEARER,
    request: { query: inboxListQuery },
    responses: { 200: json('One page and the total for the same filter', notificationListResponse) },
    errors: [400, 401, 403, 429],
  },
  {
    method: 'options',
    path: '/me/notifications',
    operationId: 'optionsMeNotifications',
    summary: 'CORS preflight of the end-user routes',
    description:
      'A preflight carries no token, so it cannot name the project: it answers which methods and headers may ' +
      "follow, and the request itself is checked against the project's allowed origins.",
    security: [],
    responses: { 204: { description: 'Methods and headers allowed' } },
  },
  {
    method: 'get',
    path: '/me/notifications/stream',
    operationId: 'getMeNotificationsStream',
    summary: "The end user's notifications as they happen (Server-Sent Events)",
    description: `${STREAM_DESCRIPTION} ${BEARER_NOTE} The stream ends when the token expires; reconnect with a fresh one.`,
    security: BEARER,
    request: {
      query: describedKeys(inboxStreamQuery, {
        access_token: "The access token, for clients that cannot set headers (the browser's EventSource)",
      }),
      headers: lastEventId,
    },
    responses: { 200: eventStream },
    errors: [400, 401, 403, 429],
  },
  {
    method: 'get',
    path: '/me/notifications/unread-count',
    operationId: 'getMeNotificationsUnreadCount',
    summary: "The end user's unread count",
    description: BEARER_NOTE,
    security: BEARER,
    responses: { 200: json('The count', unreadCountResponse) },
    errors: [401, 403, 429],
  },
  {
    method: 'patch',
    path: '/me/notifications/mark-all-read',
    operationId: 'patchMeNotificationsMarkAllRead',
    summary: 'Mark every notification the end user sees read for them',
    description: BEARER_NOTE,
    security: BEARER,
    responses: { 200: json('How many notifications changed', markAllReadResponse) },
    errors: [401, 403, 429],
  },
  {
    method: 'patch',
    path: '/me/notifications/{id}/read',
    operationId: 'patchMeNotificationsByIdRead',
    summary: "Mark one of the end user's notifications (or a broadcast, for them) read",
    description: `${BEARER_NOTE} Another user's notification is 404.`,
    security: BEARER,
    request: { params: notificationIdParams },
    responses: { 200: json('The notification as the user sees it', notificationResponse) },
    errors: [401, 403, 404, 429],
  },
];

export const openapi = buildContractDocument({
  title: 'Notifications service',
  description:
    'In-app notifications for one user or broadcast to all users of a project, with per-user read tracking of ' +
    'broadcasts, soft delete and expiry; live streams (Server-Sent Events) and an inbox the end user calls with ' +
    'their own access token. Part of the application backend platform. All paths start with /v1.',
  operations: [...keyedOperations, ...endUserOperations],
  tags: [
    {
      name: 'notifications',
      description: 'Notifications sent and read with the project keys',
      paths: ['/notifications'],
    },
    { name: 'inbox', description: "The end user's own notifications, read with their access token", paths: ['/me'] },
  ],
});
