import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse } from '@platform/tenancy';
import { listNewsQuerySchema } from './news.schemas';
import { getNews, listNews } from './news.service';

/** Thin handlers; news is the same for every project, so no tenant is passed. */
export function newsHandlers(db: Knex): Record<string, RequestHandler> {
  return {
    list: async (req, res) => {
      res.json(await listNews(db, parse(listNewsQuerySchema, req.query)));
    },
    get: async (req, res) => {
      res.json(await getNews(db, String(req.params.id)));
    },
  };
}
