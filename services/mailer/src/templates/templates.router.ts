import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import type { TemplateRenderer } from './template-budget';
import { createTemplateSchema, listTemplatesSchema, previewSchema, updateTemplateSchema } from './templates.schemas';
import * as templates from './templates.service';

/** Thin handlers: validated input -> service -> JSON. routes.ts mounts them behind the keys. */
export function templateHandlers(
  db: Knex,
  renderer: TemplateRenderer,
): Record<'create' | 'list' | 'get' | 'update' | 'remove' | 'preview', RequestHandler<{ id: string }>> {
  return {
    create: async (req, res) => {
      const input = parse(createTemplateSchema, req.body);
      res.status(201).json(await templates.createTemplate(db, renderer, tenantOf(req), input));
    },
    list: async (req, res) => {
      res.json(await templates.listTemplates(db, tenantOf(req), parse(listTemplatesSchema, req.query)));
    },
    get: async (req, res) => {
      res.json(await templates.getTemplate(db, tenantOf(req), req.params.id));
    },
    update: async (req, res) => {
      const input = parse(updateTemplateSchema, req.body);
      res.json(await templates.updateTemplate(db, renderer, tenantOf(req), req.params.id, input));
    },
    remove: async (req, res) => {
      await templates.removeTemplate(db, tenantOf(req), req.params.id);
      res.status(204).end();
    },
    preview: async (req, res) => {
      res.json(
        await templates.previewTemplate(db, renderer, tenantOf(req), req.params.id, parse(previewSchema, req.body)),
      );
    },
  };
}
