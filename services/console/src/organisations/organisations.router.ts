import type { RequestHandler } from 'express';
import { parse } from '@platform/tenancy';
import { accessOf, auditContextOf, memberOf } from '../access/access.middleware';
import { organisationBody } from './organisations.schemas';
import * as organisations from './organisations.service';

/** Thin handlers: validated input -> service -> response. */
export function organisationHandlers(dbs: organisations.ConsoleDbs & { relay: { kick(): void } }) {
  const create: RequestHandler = async (req, res) => {
    const { name } = parse(organisationBody, req.body);
    res.status(201).json(await organisations.createOrganisation(dbs, auditContextOf(req), memberOf(req), name));
  };

  const listMine: RequestHandler = async (req, res) => {
    res.json({ organisations: await organisations.listMyOrganisations(dbs, memberOf(req)) });
  };

  const get: RequestHandler = async (req, res) => {
    const { tenantId, role } = accessOf(req);
    res.json(await organisations.getOrganisation(dbs, tenantId, role));
  };

  const rename: RequestHandler = async (req, res) => {
    const { name } = parse(organisationBody, req.body);
    const { tenantId, role } = accessOf(req);
    res.json(await organisations.renameOrganisation(dbs, auditContextOf(req), tenantId, role, name));
  };

  const remove: RequestHandler = async (req, res) => {
    await organisations.deleteOrganisation(dbs, auditContextOf(req), accessOf(req).tenantId);
    res.status(204).end();
  };

  return { create, listMine, get, rename, remove };
}
