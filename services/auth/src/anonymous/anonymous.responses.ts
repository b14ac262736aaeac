import { succeeded } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { userResponse } from '../users/users.responses';

/** After signing up, an access token for the same session that no longer says `is_anonymous`. */
export const convertedResponse = succeeded(Joi, {
  user: userResponse.required(),
  accessToken: Joi.string().required().description('RS256 JWT for the same session (sid), is_anonymous false'),
}).id('Converted');
