import { Joi } from '@platform/tenancy';
import type { EndScope } from './user-sessions.service';

export const endScopeSchema = Joi.object<{ scope: EndScope }>({
  scope: Joi.string()
    .valid('others', 'all')
    .required()
    .description('others: every session but the one of this access token; all: every session, like logout'),
});

/** Path parameters (documented; the handlers treat an id that is not a UUID as unknown: 404). */
export const sessionIdParams = Joi.object({ id: Joi.string().required().description('Session id (the sid claim)') });
export const userIdParams = Joi.object({ userId: Joi.string().required().description('User id') });
export const userSessionParams = userIdParams.keys({ id: Joi.string().required().description('Session id') });
