import type { RequestHandler } from 'express';
import { parse } from '@platform/tenancy';
import { memberOf } from '../access/access.middleware';
import { accountBody, signUpBody } from './accounts.schemas';
import * as accounts from './accounts.service';

export function accountHandlers(deps: accounts.AccountDeps) {
  /** One handler per Authentication route: the answer (status and body) is Authentication's. */
  const forward =
    (action: accounts.AccountAction): RequestHandler =>
    async (req, res) => {
      const body = parse(action === 'sign-up' ? signUpBody : accountBody, req.body);
      if (action === 'sign-up') await accounts.assertMaySignUp(deps, body.email as string);
      const answer = await accounts.forward(deps, action, body, {
        clientAddress: req.ip,
        userAgent: req.get('user-agent'),
      });
      if (answer.body === undefined) res.status(answer.status).end();
      else res.status(answer.status).json(answer.body);
    };

  const me: RequestHandler = async (req, res) => {
    res.json(await accounts.me(deps, memberOf(req), accounts.emailVerifiedOf(deps)(req)));
  };

  return { forward, me };
}
