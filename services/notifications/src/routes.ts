import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';

/** The whole route table of the Notifications service. */
export function createRoutes(_deps: ServiceDeps): Router {
  const router = Router();
  return router;
}
