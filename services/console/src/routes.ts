import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { byIp, createRateLimit, signingKey } from '@platform/tenancy';
import { orgAccess, requireMember } from './access/access.middleware';
import { accountHandlers } from './accounts/accounts.router';
import { emailVerifiedOf } from './accounts/accounts.service';
import type { ReservedProject } from './accounts/reserved-project';
import { auditHandlers } from './audit/audit.router';
import type { ConsoleConfig } from './config';
import { invitationHandlers } from './invitations/invitations.router';
import { keyHandlers } from './keys/keys.router';
import { memberTokenHandlers } from './member-tokens/member-tokens.router';
import { mcpEndpoint } from './mcp/mcp.router';
import { memberHandlers } from './members/members.router';
import { operatorHandlers } from './operators/operators.router';
import { organisationHandlers } from './organisations/organisations.router';
import { projectHandlers } from './projects/projects.router';
import { settingHandlers } from './settings/settings.router';

/** The whole route table of the console (mounted under /v1), middleware visible per route. */
export function createRoutes(deps: ServiceDeps, config: ConsoleConfig, reserved: ReservedProject): Router {
  const { db, platformDb, relay, secrets } = deps;
  const member = requireMember(deps.jwt.publicKey, reserved);
  const org = (permission: Parameters<typeof orgAccess>[1]) => orgAccess(db, permission);
  const limit = (name: string, windowMs: number, max: number, key = byIp) =>
    createRateLimit({ name: `console-${name}`, windowMs, limit: max, key, redis: deps.redis, logger: deps.logger });
  const signInLimit = limit('sign-in', 60_000, config.signInLimitPerMinute);
  const invitationLimit = limit('invitations', 3_600_000, config.invitationLimitPerHour, (req) =>
    req.consoleMember ? `member:${req.consoleMember.userId}` : byIp(req),
  );

  const accounts = accountHandlers({ db, platformDb, reserved, config });
  const organisations = organisationHandlers({ db, platformDb, relay });
  const members = memberHandlers(db);
  const invitations = invitationHandlers({ db, platformDb, relay, reserved, config });
  const projects = projectHandlers({ db, platformDb, relay, secrets });
  const keys = keyHandlers({ db, platformDb, keyCacheTtlMs: deps.directory.ttlMs });
  const settings = settingHandlers({ db, platformDb });
  const memberTokens = memberTokenHandlers({
    db,
    platformDb,
    signingKey: deps.jwt.privateKey ? signingKey(deps.jwt.privateKey) : undefined,
    ttlSeconds: config.memberTokenTtlSeconds,
  });
  const audit = auditHandlers(db);
  const operators = operatorHandlers({ db, platformDb, emailVerified: emailVerifiedOf({ reserved, config }) });

  const mcp = mcpEndpoint({ db, directory: deps.directory, jwtPublicKey: deps.jwt.publicKey, config });

  const router = Router();
  for (const action of [
    'sign-up',
    'sign-in',
    'refresh',
    'sign-out',
    'forgot-password',
    'reset-password',
    'verify-email',
    'resend-verification',
  ] as const)
    router.post(`/account/${action}`, signInLimit, accounts.forward(action));
  router.get('/me', member, accounts.me);

  router.post('/organisations', member, organisations.create);
  router.get('/organisations', member, organisations.listMine);
  router.get('/organisations/:orgId', member, org('organisation.read'), organisations.get);
  router.patch('/organisations/:orgId', member, org('organisation.rename'), organisations.rename);
  router.delete('/organisations/:orgId', member, org('organisation.delete'), organisations.remove);

  router.get('/organisations/:orgId/members', member, org('members.read'), members.list);
  router.patch('/organisations/:orgId/members/:userId', member, org('members.manage'), members.changeRole);
  // Any member may leave; removing someone else is checked in the service (admin and up).
  router.delete('/organisations/:orgId/members/:userId', member, org('members.read'), members.remove);

  router.post(
    '/organisations/:orgId/invitations',
    member,
    invitationLimit,
    org('invitations.manage'),
    invitations.create,
  );
  router.get('/organisations/:orgId/invitations', member, org('invitations.manage'), invitations.list);
  router.delete(
    '/organisations/:orgId/invitations/:invitationId',
    member,
    org('invitations.manage'),
    invitations.revoke,
  );
  router.post('/invitations/accept', signInLimit, member, invitations.accept);

  router.post('/organisations/:orgId/projects', member, org('projects.manage'), projects.create);
  router.get('/organisations/:orgId/projects', member, org('projects.read'), projects.list);
  router.get('/organisations/:orgId/projects/:projectId', member, org('projects.read'), projects.get);
  router.patch('/organisations/:orgId/projects/:projectId', member, org('projects.manage'), projects.rename);
  router.delete('/organisations/:orgId/projects/:projectId', member, org('projects.manage'), projects.remove);

  router.get('/organisations/:orgId/projects/:projectId/keys', member, org('keys.read'), keys.list);
  router.post('/organisations/:orgId/projects/:projectId/keys', member, org('keys.manage'), keys.create);
  router.post('/organisations/:orgId/projects/:projectId/keys/:keyId/rotate', member, org('keys.manage'), keys.rotate);
  router.delete('/organisations/:orgId/projects/:projectId/keys/:keyId', member, org('keys.manage'), keys.revoke);

  router.get('/organisations/:orgId/projects/:projectId/settings', member, org('settings.read'), settings.get);
  router.patch('/organisations/:orgId/projects/:projectId/settings', member, org('settings.write'), settings.update);

  router.post(
    '/organisations/:orgId/projects/:projectId/member-token',
    member,
    org('member-token.issue'),
    memberTokens.issue,
  );

  router.get('/organisations/:orgId/audit', member, org('audit.read'), audit.list);
  router.get('/organisations/:orgId/audit/export', member, org('audit.read'), audit.exportRange);

  router.get('/operator/organisations', member, operators.requireOperator, operators.list);
  // The MCP endpoint checks its own credentials (project key, member token or console session).
  router.post('/mcp', mcp.post);
  router.get('/mcp', mcp.notAllowed);
  router.delete('/mcp', mcp.notAllowed);

  router.post('/operator/organisations/:orgId/suspension', member, operators.requireOperator, operators.suspend);
  router.delete('/operator/organisations/:orgId/suspension', member, operators.requireOperator, operators.lift);
  return router;
}
