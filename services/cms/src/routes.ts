import { Router } from 'express';
import { projectKeys, type ServiceDeps } from '@platform/runtime';
import { cmsRuntime } from './cms-runtime';
import { contentHandlers } from './content/content.router';
import { ContentService } from './content/content.service';
import { contentTypeHandlers } from './content-types/content-types.router';
import { ContentTypesService } from './content-types/content-types.service';
import { newsHandlers } from './news/news.router';
import { rejectNulCharacters } from './nul-guard';
import { NewsService } from './news/news.service';

/** The whole route table of the CMS service. */
export function createRoutes(deps: ServiceDeps): Router {
  const router = Router();
  const runtime = cmsRuntime(deps);
  const contentTypes = new ContentTypesService(deps.db, runtime.patternChecker, runtime.contentValidator);
  const content = contentHandlers(new ContentService(deps.db, contentTypes));
  const types = contentTypeHandlers(contentTypes);
  const news = newsHandlers(new NewsService(deps.db));
  const keys = projectKeys(deps);
  // After the key check, so that a caller without keys learns nothing but 401.
  const noNul = rejectNulCharacters;

  router.post('/content', keys, noNul, content.create);
  router.get('/content', keys, noNul, content.list);
  router.get('/content/:id', keys, noNul, content.get);
  router.put('/content/:id', keys, noNul, content.update);
  router.delete('/content/:id', keys, noNul, content.remove);

  router.post('/content-types', keys, noNul, types.create);
  router.get('/content-types', keys, noNul, types.list);
  router.get('/content-types/:id', keys, noNul, types.get);
  router.put('/content-types/:id', keys, noNul, types.update);

  router.get('/news', keys, noNul, news.list);
  router.get('/news/:id', keys, noNul, news.get);
  return router;
}
