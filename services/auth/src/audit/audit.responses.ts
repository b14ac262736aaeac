import { Joi } from '@platform/tenancy';
import type { SecurityEvent } from './audit.mapper';
import { SECURITY_EVENT_TYPES } from './audit.model';

export const securityEventResponse = Joi.object<SecurityEvent>({
  id: Joi.string().guid().required(),
  type: Joi.string()
    .valid(...SECURITY_EVENT_TYPES)
    .required(),
  userId: Joi.string().allow(null).required().description('null for a failed sign-in with an email of no account'),
  sessionId: Joi.string().allow(null).required().description('The session concerned (or the one that acted)'),
  ip: Joi.string().allow(null).required().description('Client address of the request'),
  userAgent: Joi.string().allow(null).required(),
  data: Joi.object()
    .unknown(true)
    .required()
    .description(
      'Details by type: sign_in {method, aal}; sign_in_failed {reason}; session_ended {endedBy, bySessionId?}; mfa_* {factorId}; passkey_* {passkeyId}. Never a password, code or token.',
    ),
  createdAt: Joi.string().required().meta({ format: 'date-time' }),
}).id('SecurityEvent');

export const eventPageResponse = Joi.object({
  events: Joi.array().items(securityEventResponse).required().description('Newest first'),
  nextCursor: Joi.string().allow(null).required().description('Pass as cursor for the next page; null on the last'),
}).id('SecurityEventPage');
