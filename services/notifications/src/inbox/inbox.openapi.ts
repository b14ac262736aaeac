import { BEARER, errorResponses, jsonResponse, KEYS, type JsonSchema } from '@platform/tenancy';
import { listFilterParams } from '../notifications/notifications.openapi';
import { LIMITS } from '../notifications/notifications.schemas';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const inboxSchemas: Record<string, JsonSchema> = {
  UnreadCount: {
    type: 'object',
    additionalProperties: false,
    required: ['count'],
    properties: {
      count: {
        type: 'integer',
        minimum: 0,
        description:
          "The user's own unread notifications plus the broadcasts they have not read (expired and deleted left out)",
      },
    },
  },
};

const userIdParam = {
  name: 'userId',
  in: 'query',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: LIMITS.userId },
  description: 'The user',
};
const lastEventIdParam = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  schema: { type: 'string', pattern: '^\\d{1,15}$' },
  description:
    'Sent by EventSource when it reconnects: the stream first replays the changes after it (kept for ' +
    'NOTIFICATIONS_REPLAY_WINDOW_HOURS, default 24 h, at most NOTIFICATIONS_REPLAY_MAX_EVENTS, default 1000), ' +
    'in order and once each; when more were missed, or they are no longer kept, it sends `reset` instead.',
};

const STREAM_DESCRIPTION = [
  "Server-Sent Events of one user's notifications: their own and the project's broadcasts. Events:",
  '`notification` (data: the notification as the REST API returns it), `read` (`{id}`), `read_all` (`{}`),',
  '`deleted` (`{id}`; also when a notification expires), `unread_count` (`{count}`; on connect and after every',
  'change of that count), `reset` (`{}`: more was missed than can be replayed; reload the list).',
  "Every event has an `id:`, the change's number in the project's log. A comment line (`: ping`) every",
  'NOTIFICATIONS_STREAM_HEARTBEAT_MS (default 15 s) keeps proxies from closing the connection.',
  'Streams per project and per user on one process are limited (NOTIFICATIONS_STREAMS_PER_PROJECT,',
  'NOTIFICATIONS_STREAMS_PER_USER: 429 beyond); a client that does not read is disconnected once',
  'NOTIFICATIONS_STREAM_BUFFER_BYTES are queued for it.',
].join(' ');

const eventStream = {
  description: 'The event stream; it stays open',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

const bearerNote =
  'Authorised by the access token Authentication issued (project and user come from it). A request with an ' +
  "Origin header passes only from an origin in the project's `allowedOrigins` setting (403 otherwise) and " +
  'gets `Access-Control-Allow-Origin`.';

export const inboxPaths: Record<string, unknown> = {
  '/notifications/stream': {
    get: {
      summary: "A user's notifications as they happen (Server-Sent Events), for backends",
      description: STREAM_DESCRIPTION,
      security: KEYS,
      parameters: [userIdParam, lastEventIdParam],
      responses: { '200': eventStream, ...errorResponses(400, 401, 429) },
    },
  },
  '/notifications/unread-count': {
    get: {
      summary: "A user's unread count",
      security: KEYS,
      parameters: [userIdParam],
      responses: { '200': jsonResponse('The count', ref('UnreadCount')), ...errorResponses(400, 401) },
    },
  },
  '/me/notifications': {
    get: {
      summary: "The end user's notifications (their own and the broadcasts), newest first",
      description: bearerNote,
      security: BEARER,
      parameters: listFilterParams,
      responses: {
        '200': jsonResponse('One page and the total for the same filter', ref('NotificationList')),
        ...errorResponses(400, 401, 403, 429),
      },
    },
    options: {
      summary: 'CORS preflight of the end-user routes',
      description:
        'A preflight carries no token, so it cannot name the project: it answers which methods and headers may ' +
        "follow, and the request itself is checked against the project's allowed origins.",
      security: [],
      responses: { '204': { description: 'Methods and headers allowed' } },
    },
  },
  '/me/notifications/stream': {
    get: {
      summary: "The end user's notifications as they happen (Server-Sent Events)",
      description: `${STREAM_DESCRIPTION} ${bearerNote} The stream ends when the token expires; reconnect with a fresh one.`,
      security: BEARER,
      parameters: [
        {
          name: 'access_token',
          in: 'query',
          schema: { type: 'string' },
          description: "The access token, for clients that cannot set headers (the browser's EventSource)",
        },
        lastEventIdParam,
      ],
      responses: { '200': eventStream, ...errorResponses(400, 401, 403, 429) },
    },
  },
  '/me/notifications/unread-count': {
    get: {
      summary: "The end user's unread count",
      description: bearerNote,
      security: BEARER,
      responses: { '200': jsonResponse('The count', ref('UnreadCount')), ...errorResponses(401, 403, 429) },
    },
  },
  '/me/notifications/mark-all-read': {
    patch: {
      summary: 'Mark every notification the end user sees read for them',
      description: bearerNote,
      security: BEARER,
      responses: {
        '200': jsonResponse('How many notifications changed', ref('MarkAllReadResult')),
        ...errorResponses(401, 403, 429),
      },
    },
  },
  '/me/notifications/{id}/read': {
    patch: {
      summary: "Mark one of the end user's notifications (or a broadcast, for them) read",
      description: `${bearerNote} Another user's notification is 404.`,
      security: BEARER,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': jsonResponse('The notification as the user sees it', ref('Notification')),
        ...errorResponses(401, 403, 404, 429),
      },
    },
  },
};
