import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { requireKeys } from '@platform/tenancy';
import { contentHandlers } from './content/content.router';
import { ContentService } from './content/content.service';
import { contentTypeHandlers } from './content-types/content-types.router';
import { ContentTypesService } from './content-types/content-types.service';
import { newsHandlers } from './news/news.router';
import { NewsService } from './news/news.service';

/** The whole route table of the CMS service. */
export function createRoutes(deps: ServiceDeps): Router {
  const router = Router();
  const keys = requireKeys(deps.directory);
  const contentTypes = new ContentTypesService(deps.db);
  const content = contentHandlers(new ContentService(deps.db, contentTypes));
  const types = contentTypeHandlers(contentTypes);
  const news = newsHandlers(new NewsService(deps.db));

  router.post('/content', keys, content.create);
  router.get('/content', keys, content.list);
  router.get('/content/:id', keys, content.get);
  router.put('/content/:id', keys, content.update);
  router.delete('/content/:id', keys, content.remove);

  router.post('/content-types', keys, types.create);
  router.get('/content-types', keys, types.list);
  router.get('/content-types/:id', keys, types.get);
  router.put('/content-types/:id', keys, types.update);

  router.get('/news', keys, news.list);
  router.get('/news/:id', keys, news.get);
  return router;
}
