import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf } from '@platform/tenancy';
import { listRevisionsQuerySchema, revisionNumber } from './revisions.schemas';
import * as revisions from './revisions.service';

const numberOf = (raw: unknown) => {
  const number = revisionNumber(String(raw));
  if (number === null) throw errors.notFound('Revision');
  return number;
};

/** Thin handlers: validated input -> service -> JSON. */
export function revisionHandlers(
  db: Knex,
  relay: { kick(): void },
): Record<'list' | 'get' | 'restore', RequestHandler> {
  return {
    list: async (req, res) => {
      const page = parse(listRevisionsQuerySchema, req.query);
      res.json(await revisions.listRevisions(db, tenantOf(req), String(req.params.id), page));
    },
    get: async (req, res) => {
      res.json(await revisions.getRevision(db, tenantOf(req), String(req.params.id), numberOf(req.params.number)));
    },
    restore: async (req, res) => {
      const number = numberOf(req.params.number);
      res.json(await revisions.restoreRevision(db, relay, tenantOf(req), String(req.params.id), number));
    },
  };
}
