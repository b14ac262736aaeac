import { buildOpenApiDocument } from '@platform/tenancy';
import { notificationPaths, notificationSchemas } from './notifications/notifications.openapi';

export const openapi = buildOpenApiDocument({
  title: 'Notifications service',
  description:
    'In-app notifications for one user or broadcast to all users of a project, with per-user read tracking of ' +
    'broadcasts, soft delete and expiry. Part of the application backend platform. All paths start with /v1.',
  paths: notificationPaths,
  schemas: notificationSchemas,
});
