import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse, tenantOf } from '@platform/tenancy';
import { addSuppressionSchema, listSuppressionsSchema, suppressedEmailSchema } from './suppressions.schemas';
import * as suppressions from './suppressions.service';

/** Thin handlers for the suppression list; routes.ts mounts them behind the keys. */
export function suppressionHandlers(db: Knex): Record<'list' | 'add' | 'remove', RequestHandler<{ email: string }>> {
  return {
    list: async (req, res) => {
      res.json(await suppressions.listSuppressions(db, tenantOf(req), parse(listSuppressionsSchema, req.query)));
    },
    add: async (req, res) => {
      res.status(201).json(await suppressions.addSuppression(db, tenantOf(req), parse(addSuppressionSchema, req.body)));
    },
    remove: async (req, res) => {
      const { email } = parse(suppressedEmailSchema, { email: req.params.email });
      await suppressions.removeSuppression(db, tenantOf(req), email);
      res.status(204).end();
    },
  };
}
