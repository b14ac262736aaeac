import { json, type OperationDefinition, KEYS, KEYS_AND_BEARER } from '@platform/contract';
import { sessionResponse } from '../sessions/sessions.responses';
import { convertedResponse } from './anonymous.responses';
import { anonymousSchema, convertSchema } from './anonymous.schemas';

/** The contract of anonymous users: signing in without signing up, and signing up later. */
export function anonymousOperations(rateLimited: string): OperationDefinition[] {
  return [
    {
      method: 'post',
      path: '/anonymous',
      operationId: 'postAnonymous',
      summary: 'Sign in without signing up',
      description: `When the project setting anonymousSignIn is true: creates a user with no e-mail and no password and a first session; the access token carries is_anonymous true. The user keeps their id when they later sign up (POST /me/convert, or a provider through GET /authorize). Anonymous users who never sign up are deleted after AUTH_ANONYMOUS_MAX_AGE_DAYS, with auth.user.deleted so that every service erases their data. 403 FORBIDDEN when the project does not enable it. ${rateLimited}`,
      security: KEYS,
      request: { body: anonymousSchema },
      responses: { 201: json('Signed in anonymously', sessionResponse) },
      errors: [400, 401, 403, 429],
    },
    {
      method: 'post',
      path: '/me/convert',
      operationId: 'postMeConvert',
      summary: 'Sign up the anonymous user with an e-mail and password',
      description:
        "The anonymous user of the token becomes a normal user with the same id and data. Writes auth.user.registered (with a verification link when the project requires verified e-mails). Answers with an access token for the same session without is_anonymous. 409 CONFLICT when the user has already signed up, 409 USER_ALREADY_EXISTS when the e-mail is another user's.",
      security: KEYS_AND_BEARER,
      request: { body: convertSchema },
      responses: { 200: json('Signed up', convertedResponse) },
      errors: [400, 401, 409],
    },
  ];
}
