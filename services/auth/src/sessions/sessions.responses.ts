import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { userResponse } from '../users/users.responses';

/** Register, login and refresh all answer with a session. */
export const sessionResponse = succeeded(Joi, {
  user: userResponse.required(),
  accessToken: Joi.string()
    .required()
    .description(
      'RS256 JWT, 15 minutes. Claims: sub (user id), tid (tenant), pid (project), email, ver (token version), sid (session id), aal ("aal1", or "aal2" after a second factor or a passkey), typ "access", iss "platform-auth", aud "urn:platform:project:<project id>". Verify with GET /.well-known/jwks.json and check iss and aud (e.g. jose jwtVerify(token, jwks, {issuer, audience})). It stays valid until it expires even when its session ends; GET /sessions/{sid} tells whether the session is still live.',
    ),
  refreshToken: Joi.string()
    .required()
    .description(
      'Opaque, 30 days, single use: every refresh returns a new one. Presenting a used one revokes the whole session family.',
    ),
}).id('Session');
