import type { Request, RequestHandler } from 'express';
import { errors, parse } from '@platform/tenancy';
import { auditContextOf, memberOf } from '../access/access.middleware';
import { organisationsQuery, suspendBody } from './operators.schemas';
import * as operators from './operators.service';

export function operatorHandlers(
  deps: operators.OperatorDeps & { emailVerified: (req: Request) => () => Promise<boolean> },
) {
  /** Operator routes answer 403 to every other member. */
  const requireOperator: RequestHandler = async (req, _res, next) => {
    if (!(await operators.isOperator(deps.db, memberOf(req), deps.emailVerified(req))))
      throw errors.forbidden('Operators only');
    next();
  };

  const list: RequestHandler = async (req, res) => {
    const page = parse(organisationsQuery, req.query);
    res.json({ organisations: await operators.listAllOrganisations(deps, page) });
  };

  const suspend: RequestHandler<{ orgId: string }> = async (req, res) => {
    const { reason } = parse(suspendBody, req.body);
    res.json(await operators.suspendOrganisation(deps, auditContextOf(req), req.params.orgId, reason));
  };

  const lift: RequestHandler<{ orgId: string }> = async (req, res) => {
    res.json(await operators.liftSuspension(deps, auditContextOf(req), req.params.orgId));
  };

  return { requireOperator, list, suspend, lift };
}
