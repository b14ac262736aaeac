import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { createContentTypeSchema, updateContentTypeSchema } from './content-types.schemas';
import * as contentTypes from './content-types.service';
import type { SchemaChecks } from './content-types.service';

/** Thin handlers: validated input -> service -> JSON. */
export function contentTypeHandlers(
  db: Knex,
  checks: SchemaChecks,
): Record<'create' | 'list' | 'get' | 'update', RequestHandler> {
  return {
    create: async (req, res) => {
      const input = parse(createContentTypeSchema, req.body);
      res.status(201).json(await contentTypes.createContentType(db, checks, tenantOf(req), input));
    },
    list: async (req, res) => {
      res.json({ contentTypes: await contentTypes.listContentTypes(db, tenantOf(req)) });
    },
    get: async (req, res) => {
      res.json(await contentTypes.getContentType(db, tenantOf(req), String(req.params.id)));
    },
    update: async (req, res) => {
      const input = parse(updateContentTypeSchema, req.body);
      res.json(await contentTypes.updateContentType(db, checks, tenantOf(req), String(req.params.id), input));
    },
  };
}
