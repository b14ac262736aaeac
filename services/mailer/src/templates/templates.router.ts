import type { RequestHandler } from 'express';
import { parse, tenantOf } from '@platform/tenancy';
import { createTemplateSchema, listTemplatesSchema, previewSchema, updateTemplateSchema } from './templates.schemas';
import type { TemplatesService } from './templates.service';

/** Thin handlers: validated input -> service -> JSON. routes.ts mounts them behind the keys. */
export function templateHandlers(
  templates: TemplatesService,
): Record<'create' | 'list' | 'get' | 'update' | 'remove' | 'preview', RequestHandler<{ id: string }>> {
  return {
    create: async (req, res) => {
      res.status(201).json(await templates.create(tenantOf(req), parse(createTemplateSchema, req.body)));
    },
    list: async (req, res) => {
      res.json(await templates.list(tenantOf(req), parse(listTemplatesSchema, req.query)));
    },
    get: async (req, res) => {
      res.json(await templates.get(tenantOf(req), req.params.id));
    },
    update: async (req, res) => {
      res.json(await templates.update(tenantOf(req), req.params.id, parse(updateTemplateSchema, req.body)));
    },
    remove: async (req, res) => {
      await templates.remove(tenantOf(req), req.params.id);
      res.status(204).end();
    },
    preview: async (req, res) => {
      const { data, locale } = parse(previewSchema, req.body);
      res.json(await templates.preview(tenantOf(req), req.params.id, data, locale));
    },
  };
}
