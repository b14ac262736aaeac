import type { RequestHandler } from 'express';
import { errors, parse, tenantOf } from '@platform/tenancy';
import { listRevisionsQuerySchema, revisionNumber } from './revisions.schemas';
import type { RevisionsService } from './revisions.service';

const numberOf = (raw: unknown) => {
  const number = revisionNumber(String(raw));
  if (number === null) throw errors.notFound('Revision');
  return number;
};

/** Thin handlers: validated input -> service -> JSON. */
export function revisionHandlers(service: RevisionsService): Record<string, RequestHandler> {
  return {
    list: async (req, res) => {
      const page = parse(listRevisionsQuerySchema, req.query);
      res.json(await service.list(tenantOf(req), String(req.params.id), page));
    },
    get: async (req, res) => {
      res.json(await service.get(tenantOf(req), String(req.params.id), numberOf(req.params.number)));
    },
    restore: async (req, res) => {
      res.json(await service.restore(tenantOf(req), String(req.params.id), numberOf(req.params.number)));
    },
  };
}
