import { buildOpenApiDocument } from '@platform/tenancy';
import { inboxPaths, inboxSchemas } from './inbox/inbox.openapi';
import { notificationPaths, notificationSchemas } from './notifications/notifications.openapi';

export const openapi = buildOpenApiDocument({
  title: 'Notifications service',
  description:
    'In-app notifications for one user or broadcast to all users of a project, with per-user read tracking of ' +
    'broadcasts, soft delete and expiry; live streams (Server-Sent Events) and an inbox the end user calls with ' +
    'their own access token. Part of the application backend platform. All paths start with /v1.',
  paths: { ...notificationPaths, ...inboxPaths },
  schemas: { ...notificationSchemas, ...inboxSchemas },
});
