import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import { createContentSchema, listContentQuerySchema, updateContentSchema } from './content.schemas';
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
      res.json(await service.get(tenantOf(req), String(req.params.id)));
    },
    update: async (req, res) => {
      res.json(await service.update(tenantOf(req), String(req.params.id), parse(updateContentSchema, req.body)));
    },
    remove: async (req, res) => {
      await service.remove(tenantOf(req), String(req.params.id));
      res.status(204).end();
    },
  };
}
