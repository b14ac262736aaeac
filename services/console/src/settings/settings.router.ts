import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { parse } from '@platform/tenancy';
import { accessOf, auditContextOf } from '../access/access.middleware';
import { settingsBody } from './settings.schemas';
import * as settings from './settings.service';

type ProjectParams = { orgId: string; projectId: string };

export function settingHandlers(deps: { db: Knex; platformDb: Knex }) {
  const get: RequestHandler<ProjectParams> = async (req, res) => {
    res.json(await settings.getSettings(deps.platformDb, accessOf(req).tenantId, req.params.projectId));
  };

  const update: RequestHandler<ProjectParams> = async (req, res) => {
    const changes = parse(settingsBody, req.body);
    const { tenantId } = accessOf(req);
    res.json(await settings.updateSettings(deps, auditContextOf(req), tenantId, req.params.projectId, changes));
  };

  return { get, update };
}
