import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { userResponse } from '../users/users.responses';

/** Register, login and refresh all answer with a session. */
export const sessionResponse = succeeded(Joi, {
  user: userResponse.required(),
  accessToken: Joi.string()
    .required()
    .description(
      'RS256 JWT, 15 minutes. Claims: sub (user id), tid (tenant), pid (project), email, ver (token version), typ "access", iss "platform-auth". Verify with GET /.well-known/jwks.json.',
    ),
  refreshToken: Joi.string()
    .required()
    .description(
      'Opaque, 30 days, single use: every refresh returns a new one. Presenting a used one revokes the whole session family.',
    ),
}).id('Session');
