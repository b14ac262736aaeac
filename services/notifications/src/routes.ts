import { Router } from 'express';
import { projectKeys, type ServiceDeps } from '@platform/runtime';
import { notificationHandlers } from './notifications/notifications.router';

/** The whole route table of the Notifications service (mounted under /v1). */
export function createRoutes(deps: ServiceDeps): Router {
  const router = Router();
  const keys = projectKeys(deps);
  const notifications = notificationHandlers(deps.db);

  router.post('/notifications', keys, notifications.create);
  router.get('/notifications', keys, notifications.list);
  // A literal path before the /:id routes, so "mark-all-read" is never taken for an id.
  router.patch('/notifications/mark-all-read', keys, notifications.markAllRead);
  router.get('/notifications/:id', keys, notifications.get);
  router.patch('/notifications/:id/read', keys, notifications.markRead);
  router.delete('/notifications/:id', keys, notifications.remove);
  return router;
}
