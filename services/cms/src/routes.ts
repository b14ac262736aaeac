import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys } from '@platform/tenancy';
import type { CmsShared } from './cms-shared';
import { contentHandlers } from './content/content.router';
import { contentTypeHandlers } from './content-types/content-types.router';
import { newsHandlers } from './news/news.router';
import { rejectNulCharacters } from './nul-guard';
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
  // After the key check, so that a caller without keys learns nothing but 401.
  const noNul = rejectNulCharacters;

  router.post('/content', keys, noNul, content.create);
  router.get('/content', keys, noNul, content.list);
  router.get('/content/:id', keys, noNul, content.get);
  router.put('/content/:id', keys, noNul, content.update);
  router.delete('/content/:id', keys, noNul, content.remove);
  router.post('/content/:id/publish', keys, noNul, content.publish);
  router.delete('/content/:id/draft', keys, noNul, content.discardDraft);
  router.get('/content/:id/revisions', keys, noNul, revisions.list);
  router.get('/content/:id/revisions/:number', keys, noNul, revisions.get);
  router.post('/content/:id/revisions/:number/restore', keys, noNul, revisions.restore);

  router.post('/content-types', keys, noNul, types.create);
  router.get('/content-types', keys, noNul, types.list);
  router.get('/content-types/:id', keys, noNul, types.get);
  router.put('/content-types/:id', keys, noNul, types.update);

  router.post('/webhooks', keys, noNul, webhooks.create);
  router.get('/webhooks', keys, noNul, webhooks.list);
  router.delete('/webhooks/:id', keys, noNul, webhooks.remove);
  router.get('/webhooks/:id/deliveries', keys, noNul, webhooks.deliveries);
  router.post('/webhooks/:id/deliveries/:deliveryId/redeliver', keys, noNul, webhooks.redeliver);

  router.get('/news', keys, noNul, news.list);
  router.get('/news/:id', keys, noNul, news.get);
  return router;
}
