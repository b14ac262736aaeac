import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys } from '@platform/tenancy';
import type { CmsShared } from './cms-shared';
import { contentHandlers } from './content/content.router';
import { contentTypeHandlers } from './content-types/content-types.router';
import { newsHandlers } from './news/news.router';
import { revisionHandlers } from './revisions/revisions.router';
import { webhookHandlers } from './webhooks/webhooks.router';

/** The whole route table of the CMS service. */
export function createRoutes(deps: ServiceDeps, shared: CmsShared): Router {
  const router = Router();
  const { db, relay } = deps;
  const content = contentHandlers(db, relay, shared.contentValidator);
  const revisions = revisionHandlers(db, relay);
  const webhooks = webhookHandlers(db, relay, shared.config);
  const types = contentTypeHandlers(db, {
    patterns: shared.patternChecker,
    validator: shared.contentValidator,
  });
  const news = newsHandlers(db);
  const keys = projectKeys(deps);

  router.post('/content', keys, content.create);
  router.get('/content', keys, content.list);
  router.get('/content/:id', keys, content.get);
  router.put('/content/:id', keys, content.update);
  router.delete('/content/:id', keys, content.remove);
  router.post('/content/:id/publish', keys, content.publish);
  router.delete('/content/:id/draft', keys, content.discardDraft);
  router.get('/content/:id/revisions', keys, revisions.list);
  router.get('/content/:id/revisions/:number', keys, revisions.get);
  router.post('/content/:id/revisions/:number/restore', keys, revisions.restore);

  router.post('/content-types', keys, types.create);
  router.get('/content-types', keys, types.list);
  router.get('/content-types/:id', keys, types.get);
  router.put('/content-types/:id', keys, types.update);

  router.post('/webhooks', keys, webhooks.create);
  router.get('/webhooks', keys, webhooks.list);
  router.delete('/webhooks/:id', keys, webhooks.remove);
  router.get('/webhooks/:id/deliveries', keys, webhooks.deliveries);
  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', keys, webhooks.redeliver);

  router.get('/news', keys, news.list);
  router.get('/news/:id', keys, news.get);
  return router;
}
