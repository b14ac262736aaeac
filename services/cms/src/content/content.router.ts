import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import {
  createContentSchema,
  getContentQuerySchema,
  listContentQuerySchema,
  updateContentQuerySchema,
  updateContentSchema,
} from './content.schemas';
import type { ContentService } from './content.service';

/** Thin handlers: validated input -> service -> JSON. */
export function contentHandlers(service: ContentService): Record<string, RequestHandler> {
  return {
    create: async (req, res) => {
      res.status(201).json(await service.create(tenantOf(req), parse(createContentSchema, req.body)));
    },
    list: async (req, res) => {
      res.json(await service.list(tenantOf(req), parse(listContentQuerySchema, req.query)));
    },
    get: async (req, res) => {
      const { version } = parse(getContentQuerySchema, req.query);
      res.json(await service.get(tenantOf(req), String(req.params.id), version));
    },
    update: async (req, res) => {
      const { draft } = parse(updateContentQuerySchema, req.query);
      const changes = parse(updateContentSchema, req.body);
      res.json(await service.update(tenantOf(req), String(req.params.id), changes, { draft }));
    },
    publish: async (req, res) => {
      res.json(await service.publish(tenantOf(req), String(req.params.id)));
    },
    discardDraft: async (req, res) => {
      await service.discardDraft(tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
    remove: async (req, res) => {
      await service.remove(tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
  };
}
