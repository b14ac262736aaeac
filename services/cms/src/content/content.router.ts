import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import type { ContentValidator } from '../content-types/content-validation';
import {
  createContentSchema,
  getContentQuerySchema,
  listContentQuerySchema,
  updateContentQuerySchema,
  updateContentSchema,
} from './content.schemas';
import * as content from './content.service';

/** Thin handlers: validated input -> service -> JSON. */
export function contentHandlers(
  db: Knex,
  relay: { kick(): void },
  validator: ContentValidator,
): Record<'create' | 'list' | 'get' | 'update' | 'publish' | 'discardDraft' | 'remove', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createContentSchema, req.body);
      res.status(201).json(await content.createContent(db, relay, validator, tenantOf(req), input));
    },
    list: async (req, res) => {
      res.json(await content.listContent(db, tenantOf(req), parse(listContentQuerySchema, req.query)));
    },
    get: async (req, res) => {
      const { version } = parse(getContentQuerySchema, req.query);
      res.json(await content.getContent(db, tenantOf(req), String(req.params.id), version));
    },
    update: async (req, res) => {
      const { draft } = parse(updateContentQuerySchema, req.query);
      const changes = parse(updateContentSchema, req.body);
      res.json(
        await content.updateContent(db, relay, validator, tenantOf(req), String(req.params.id), changes, { draft }),
      );
    },
    publish: async (req, res) => {
      res.json(await content.publishContent(db, relay, tenantOf(req), String(req.params.id)));
    },
    discardDraft: async (req, res) => {
      await content.discardDraft(db, relay, tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
    remove: async (req, res) => {
      await content.removeContent(db, relay, tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
  };
}
