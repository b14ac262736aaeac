import { errorResponses, jsonBody, jsonResponse, KEYS, type JsonSchema } from '@platform/tenancy';
import { DEFAULT_PAGE_SIZE, LIMITS, NOTIFICATION_TYPES } from './notifications.schemas';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const timestamp = { type: 'string', format: 'date-time' };
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' };

export const notificationSchemas: Record<string, JsonSchema> = {
  Notification: {
    type: 'object',
    additionalProperties: false,
    required: [
      'id',
      'userId',
      'title',
      'message',
      'type',
      'data',
      'read',
      'readAt',
      'createdAt',
      'expiresAt',
      'deletedAt',
    ],
    properties: {
      id: { type: 'string', format: 'uuid' },
      userId: {
        type: ['string', 'null'],
        maxLength: LIMITS.userId,
        description: 'null: a broadcast to every user of the project',
      },
      title: { type: 'string', minLength: 1, maxLength: LIMITS.title },
      message: { type: 'string', minLength: 1, maxLength: LIMITS.message },
      type: { enum: [...NOTIFICATION_TYPES] },
      data: { type: 'object', description: 'Custom payload, returned as sent' },
      read: {
        type: 'boolean',
        description:
          "With ?userId= on a broadcast: true once that user read it (or it was marked read without userId). Otherwise the notification's own read state.",
      },
      readAt: {
        ...nullableTimestamp,
        description: 'When it was (first) marked read, as seen by the same rule as `read`',
      },
      createdAt: timestamp,
      expiresAt: {
        ...timestamp,
        description: 'Default 30 days after creation; an expired notification is hidden and 404',
      },
      deletedAt: {
        ...nullableTimestamp,
        description: 'Always null in responses: soft-deleted notifications are hidden',
      },
    },
  },
  NotificationInput: {
    type: 'object',
    required: ['title', 'message'],
    description: 'Unknown fields are ignored.',
    properties: {
      userId: {
        type: ['string', 'null'],
        minLength: 1,
        maxLength: LIMITS.userId,
        description: 'Omitted or null: broadcast',
      },
      title: { type: 'string', minLength: 1, maxLength: LIMITS.title, pattern: '\\S' },
      message: { type: 'string', minLength: 1, maxLength: LIMITS.message, pattern: '\\S' },
      type: { enum: [...NOTIFICATION_TYPES], default: 'info' },
      data: { type: 'object', default: {} },
      expiresAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'Must be in the future (else 400), at most 9999-12-31. Absent or null: 30 days after creation',
      },
    },
  },
  NotificationList: {
    type: 'object',
    additionalProperties: false,
    required: ['notifications', 'total', 'limit', 'offset'],
    properties: {
      notifications: { type: 'array', items: ref('Notification') },
      total: { type: 'integer', minimum: 0, description: 'All notifications matching the same filter' },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      offset: { type: 'integer', minimum: 0 },
    },
  },
  MarkAllReadResult: {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'updated', 'count', 'message'],
    properties: {
      success: { const: true },
      updated: {
        type: 'integer',
        minimum: 0,
        description: 'Notifications that changed from unread to read for that user',
      },
      count: { type: 'integer', minimum: 0, description: 'Same as updated' },
      message: { type: 'string' },
    },
  },
};

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Notification id' };
const userIdParam = (description: string, required = false) => ({
  name: 'userId',
  in: 'query',
  required,
  schema: { type: 'string', minLength: 1, maxLength: LIMITS.userId },
  description,
});

/** The list's filters and page, shared with the end user's list. */
export const listFilterParams = [
  { name: 'read', in: 'query', schema: { type: 'boolean' } },
  { name: 'type', in: 'query', schema: { enum: [...NOTIFICATION_TYPES] } },
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: DEFAULT_PAGE_SIZE },
  },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
];

export const notificationPaths: Record<string, unknown> = {
  '/notifications': {
    post: {
      summary: 'Create a notification for one user, or a broadcast (userId omitted or null)',
      security: KEYS,
      requestBody: jsonBody(ref('NotificationInput')),
      responses: {
        '201': jsonResponse('The created notification (read false)', ref('Notification')),
        ...errorResponses(400, 401, 413),
      },
    },
    get: {
      summary: 'List notifications, newest first; soft-deleted and expired ones are left out',
      security: KEYS,
      parameters: [
        userIdParam("That user's own notifications plus broadcasts, with read state as that user sees it"),
        ...listFilterParams,
      ],
      responses: {
        '200': jsonResponse('One page and the total for the same filter', ref('NotificationList')),
        ...errorResponses(400, 401),
      },
    },
  },
  '/notifications/mark-all-read': {
    patch: {
      summary: 'Mark every unread notification a user sees (their own and broadcasts) read for that user',
      description: "Broadcasts get a per-user receipt: other users' read state does not change.",
      security: KEYS,
      parameters: [userIdParam('The user', true)],
      responses: {
        '200': jsonResponse('How many notifications changed', ref('MarkAllReadResult')),
        ...errorResponses(400, 401),
      },
    },
  },
  '/notifications/{id}': {
    get: {
      summary: 'One notification',
      security: KEYS,
      parameters: [idParam, userIdParam("Read it as this user sees it; 404 when it is another user's")],
      responses: {
        '200': jsonResponse('The notification', ref('Notification')),
        ...errorResponses(400, 401, 404),
      },
    },
    delete: {
      summary: 'Soft delete: hidden from every query afterwards; deleting again is 404',
      security: KEYS,
      parameters: [idParam],
      responses: { '204': { description: 'Deleted' }, ...errorResponses(401, 404) },
    },
  },
  '/notifications/{id}/read': {
    patch: {
      summary: 'Mark read (idempotent: the first readAt is kept)',
      description:
        "With userId on a broadcast, records that user's read only; without userId, marks the notification itself read.",
      security: KEYS,
      parameters: [idParam, userIdParam("Mark read for this user; 404 when it is another user's notification")],
      responses: {
        '200': jsonResponse('The notification with read true and readAt', ref('Notification')),
        ...errorResponses(400, 401, 404),
      },
    },
  },
};
