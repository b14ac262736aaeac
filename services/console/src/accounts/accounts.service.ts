import type { Knex } from 'knex';
import type { Request } from 'express';
import { bearerTokenOf, errors } from '@platform/tenancy';
import type { Member } from '../access/access.model';
import type { ConsoleConfig } from '../config';
import { hasOpenInvitation } from '../invitations/invitations.service';
import { isOperator, isOperatorAddress } from '../operators/operators.service';
import { listMyOrganisations } from '../organisations/organisations.service';
import type { Organisation } from '../organisations/organisations.mapper';
import { callAuth, emailVerified, type AuthAnswer } from './auth-client';
import type { ReservedProject } from './reserved-project';

export interface AccountDeps {
  db: Knex;
  platformDb: Knex;
  reserved: ReservedProject;
  config: ConsoleConfig;
}

/** The console's account endpoints and the Authentication routes they stand for. */
export const AUTH_ROUTES = {
  'sign-up': '/register',
  'sign-in': '/login',
  refresh: '/refresh-token',
  'sign-out': '/logout',
  'forgot-password': '/forgot-password',
  'reset-password': '/reset-password',
  'verify-email': '/verify-email',
  'resend-verification': '/resend-verification',
} as const;

export type AccountAction = keyof typeof AUTH_ROUTES;

/** With `CONSOLE_SIGNUP=invite`, only an address with an open invitation, or an operator's, may sign up. */
export async function assertMaySignUp(deps: AccountDeps, email: string): Promise<void> {
  if (deps.config.signup === 'open') return;
  if ((await hasOpenInvitation(deps.db, email)) || (await isOperatorAddress(deps.db, email))) return;
  throw errors.forbidden('Sign-up is by invitation only');
}

export async function forward(
  deps: AccountDeps,
  action: AccountAction,
  body: unknown,
  forwarded: { clientAddress?: string; userAgent?: string },
): Promise<AuthAnswer> {
  return callAuth(deps.config.authUrl, await deps.reserved.ensure(), AUTH_ROUTES[action], body, forwarded);
}

/** Asks Authentication, when needed, whether the request's access token is of a verified address. */
export function emailVerifiedOf(deps: Pick<AccountDeps, 'reserved' | 'config'>) {
  return (req: Request) => async () => {
    const token = bearerTokenOf(req.get('authorization'));
    return token ? emailVerified(deps.config.authUrl, await deps.reserved.ensure(), token) : false;
  };
}

/** Who is signed in: their organisations (a suspended one says why) and whether they operate the platform. */
export async function me(
  deps: AccountDeps,
  member: Member,
  verified: () => Promise<boolean>,
): Promise<{ userId: string; email: string; operator: boolean; signup: string; organisations: Organisation[] }> {
  return {
    userId: member.userId,
    email: member.email,
    operator: await isOperator(deps.db, member, verified),
    signup: deps.config.signup,
    organisations: await listMyOrganisations(deps, member),
  };
}
