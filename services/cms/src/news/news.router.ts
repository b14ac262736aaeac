import type { RequestHandler } from 'express';
import { parse } from '@platform/tenancy';
import { listNewsQuerySchema } from './news.schemas';
import type { NewsService } from './news.service';

/** Thin handlers; news is the same for every project, so no tenant is passed. */
export function newsHandlers(service: NewsService): Record<string, RequestHandler> {
  return {
    list: async (req, res) => {
      res.json(await service.list(parse(listNewsQuerySchema, req.query)));
    },
    get: async (req, res) => {
      res.json(await service.get(String(req.params.id)));
    },
  };
}
