import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys } from '@platform/tenancy';
import type { Tenant } from '@platform/tenancy';
import type { ChangeRow } from './notifications/notifications.events';
import { endUser, preflight } from './inbox/inbox.auth';
import { inboxHandlers } from './inbox/inbox.router';
import { liveHandlers } from './live/live.router';
import { notificationHandlers } from './notifications/notifications.router';
import type { LiveHub } from './live/live.hub';

/** The whole route table of the Notifications service (mounted under /v1). */
export function createRoutes(deps: ServiceDeps, hub: LiveHub): Router {
  const router = Router();
  const keys = projectKeys(deps);
  const announce = (tenant: Tenant, changes: ChangeRow[]) => hub.announce(tenant, changes);
  const notifications = notificationHandlers(deps.db, announce);
  const inbox = inboxHandlers(deps.db, announce);
  const live = liveHandlers(hub);
  // The end user's routes: their access token instead of the keys, and the very limiter the
  // keyed routes count against, so a project has one allowance whichever way it calls.
  const [, projectLimit] = keys;
  const endUserOptions = { publicKey: deps.jwt.publicKey, directory: deps.directory };
  const bearer = [endUser({ ...endUserOptions, queryToken: false }), projectLimit];
  const bearerOrQuery = [endUser({ ...endUserOptions, queryToken: true }), projectLimit];

  router.post('/notifications', keys, notifications.create);
  router.get('/notifications', keys, notifications.list);
  // Literal paths before the /:id routes, so that they are never taken for an id.
  router.patch('/notifications/mark-all-read', keys, notifications.markAllRead);
  router.get('/notifications/stream', keys, live.keyed);
  router.get('/notifications/unread-count', keys, notifications.unreadCount);
  router.get('/notifications/:id', keys, notifications.get);
  router.patch('/notifications/:id/read', keys, notifications.markRead);
  router.delete('/notifications/:id', keys, notifications.remove);

  router.options('/me/notifications{/*rest}', preflight);
  router.get('/me/notifications', bearer, inbox.list);
  router.get('/me/notifications/stream', bearerOrQuery, live.inbox);
  router.get('/me/notifications/unread-count', bearer, inbox.unreadCount);
  router.patch('/me/notifications/mark-all-read', bearer, inbox.markAllRead);
  router.patch('/me/notifications/:id/read', bearer, inbox.markRead);
  return router;
}
