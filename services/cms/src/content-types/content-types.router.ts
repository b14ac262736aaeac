import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import { createContentTypeSchema, updateContentTypeSchema } from './content-types.schemas';
import type { ContentTypesService } from './content-types.service';

/** Thin handlers: validated input -> service -> JSON. */
export function contentTypeHandlers(service: ContentTypesService): Record<string, RequestHandler> {
  return {
    create: async (req, res) => {
      res.status(201).json(await service.create(tenantOf(req), parse(createContentTypeSchema, req.body)));
    },
    list: async (req, res) => {
      res.json({ contentTypes: await service.list(tenantOf(req)) });
    },
    get: async (req, res) => {
      res.json(await service.get(tenantOf(req), String(req.params.id)));
    },
    update: async (req, res) => {
      res.json(await service.update(tenantOf(req), String(req.params.id), parse(updateContentTypeSchema, req.body)));
    },
  };
}
