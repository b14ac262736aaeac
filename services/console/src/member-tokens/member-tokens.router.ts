import type { RequestHandler } from 'express';
import { accessOf, auditContextOf, memberOf } from '../access/access.middleware';
import * as memberTokens from './member-tokens.service';

export function memberTokenHandlers(deps: memberTokens.MemberTokenDeps) {
  const issue: RequestHandler<{ orgId: string; projectId: string }> = async (req, res) => {
    res
      .status(201)
      .json(
        await memberTokens.issueMemberToken(
          deps,
          auditContextOf(req),
          memberOf(req),
          accessOf(req),
          req.params.projectId,
        ),
      );
  };
  return { issue };
}
