import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys } from '@platform/tenancy';
import type { TemplateConfig } from './config';
import { noteHandlers } from './notes/notes.router';

/** The whole route table of the service (mounted under /v1), middleware visible per route. */
export function createRoutes(deps: ServiceDeps, config: TemplateConfig): Router {
  const router = Router();
  const keys = projectKeys(deps);
  const notes = noteHandlers(deps.db, deps.relay, config);

  router.post('/notes', keys, notes.create);
  router.get('/notes/:id', keys, notes.get);
  return router;
}
