import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import type { Session } from './user-sessions.mapper';

const dateTime = { format: 'date-time' };

export const signInSessionResponse = Joi.object<Session>({
  id: Joi.string().guid().required().description('The sid claim of the access tokens issued for this session'),
  createdAt: Joi.string().required().meta(dateTime).description('When the sign-in happened'),
  lastRefreshedAt: Joi.string().required().meta(dateTime).description('Last refresh-token rotation (or the sign-in)'),
  expiresAt: Joi.string().required().meta(dateTime).description('When the session ends unless refreshed before'),
  ip: Joi.string().allow(null).required().description('Client address of the sign-in'),
  userAgent: Joi.string().allow(null).required().description('User-Agent of the sign-in'),
  deviceLabel: Joi.string().required().description('Readable label from the User-Agent, e.g. "Chrome on macOS"'),
  method: Joi.string()
    .valid('password', 'registration', 'mfa', 'passkey', 'anonymous', 'email_code', 'oidc')
    .required(),
  aal: Joi.string().valid('aal1', 'aal2').required().description('Assurance level, also the aal claim'),
  current: Joi.boolean().required().description('The session of the access token that asked (always false keys-side)'),
}).id('SignInSession');

export const sessionListResponse = Joi.object({
  sessions: Joi.array().items(signInSessionResponse).required().description('Live sessions, most recently used first'),
}).id('SignInSessionList');

export const sessionEnvelopeResponse = Joi.object({ session: signInSessionResponse.required() }).id(
  'SignInSessionEnvelope',
);

export const sessionsEndedResponse = succeeded(Joi, {
  message: Joi.string().required(),
  ended: Joi.array().items(Joi.string()).required().description('Ids of the sessions ended'),
}).id('SessionsEnded');
