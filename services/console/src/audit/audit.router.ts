import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse } from '@platform/tenancy';
import { accessOf } from '../access/access.middleware';
import { auditQuery, exportQuery } from './audit.schemas';
import * as audit from './audit.service';

export function auditHandlers(db: Knex) {
  const list: RequestHandler = async (req, res) => {
    const { limit, cursor, ...filters } = parse(auditQuery, req.query);
    res.json(await audit.listAudit(db, accessOf(req).tenantId, filters, { limit, cursor }));
  };

  /** NDJSON, one entry a line, oldest first. */
  const exportRange: RequestHandler = async (req, res) => {
    const filters = parse(exportQuery, req.query);
    res.status(200).type('application/x-ndjson');
    for await (const entry of audit.exportAudit(db, accessOf(req).tenantId, filters)) {
      if (!res.write(`${JSON.stringify(entry)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  };

  return { list, exportRange };
}
